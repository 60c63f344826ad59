import { useEffect, useState } from "preact/hooks";
import { removeUploadFolder } from "../run/upload-folders.js";
import { uploadFolderKey, uploadFoldersOf } from "../run/upload-paths.js";

/**
 * Settings' Upload folders section: the folders `upload_file` takes files from without asking
 * (the upload rule's only list; an upload card's "Always allow files from" adds to it), each
 * with Remove. Follows `chrome.storage`, so a folder a card adds shows at once.
 */
export function UploadFoldersSection() {
  const [folders, setFolders] = useState<readonly string[] | undefined>();
  useEffect(() => {
    const read = () => void chrome.storage.local.get(uploadFolderKey).then((g) => setFolders(uploadFoldersOf(g[uploadFolderKey])));
    const onChanged = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
      if (area === "local" && uploadFolderKey in changes) read();
    };
    read();
    chrome.storage.onChanged.addListener(onChanged);
    return () => chrome.storage.onChanged.removeListener(onChanged);
  }, []);
  return (
    <section class="settings upload-folders" aria-label="Upload folders">
      <fieldset>
        <legend>Upload folders</legend>
        <p class="help">Files in these folders are uploaded without asking; any other file waits for your approval, with its full path.</p>
        {folders?.length ? (
          <ul class="secret-list">
            {folders.map((f) => (
              <li key={f}>
                <code>{f}</code>
                <button type="button" class="btn" aria-label={`Remove ${f}`} onClick={() => void removeUploadFolder(f).then(setFolders)}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : folders ? (
          <p class="help">None: every upload is asked about. An upload card's "Always allow files from" adds its folder here.</p>
        ) : null}
      </fieldset>
    </section>
  );
}
