import { useEffect, useState } from "preact/hooks";
import { addUploadFolders, readUploadFolders, removeUploadFolder } from "../run/upload-folders.js";
import { checkUploadFolder, uploadFolderKey } from "../run/upload-paths.js";
import { Field, FormActions, fieldErrorId } from "./form-parts.js";

/**
 * Settings' Upload folders section: the folders `upload_file` takes files from without asking
 * (the upload rule's only list), each with Remove, and a field to add one before any task (an
 * upload card's "Always allow files from" adds to it too). A typed folder is checked by the upload
 * rule's own path handling (`checkUploadFolder`); a bad one is named under the field and nothing
 * is saved. Follows `chrome.storage`, so a folder a card adds shows at once.
 */
export function UploadFoldersSection() {
  const [folders, setFolders] = useState<readonly string[] | undefined>();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  useEffect(() => {
    const read = () => void readUploadFolders().then(setFolders);
    const onChanged = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
      if (area === "local" && uploadFolderKey in changes) read();
    };
    read();
    chrome.storage.onChanged.addListener(onChanged);
    return () => chrome.storage.onChanged.removeListener(onChanged);
  }, []);
  return (
    <form
      class="settings upload-folders"
      aria-label="Upload folders"
      onSubmit={async (e) => {
        e.preventDefault();
        // Against what is stored now, not what was last shown: a card may have added one since.
        const checked = checkUploadFolder(typed, await readUploadFolders());
        setError(checked.problem ?? "");
        if (checked.folder === undefined) return setMessage("");
        setFolders(await addUploadFolders([checked.folder]));
        setTyped("");
        setMessage(`Added ${checked.folder}.`);
      }}
    >
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
          <p class="help">None: every upload is asked about. Add one here, or answer an upload card with "Always allow files from" its folder.</p>
        ) : null}
        <Field id="upload-folder" label="Add a folder" help="Its full path on this computer. Files in it and in its subfolders upload without asking." {...(error ? { error } : {})}>
          <input
            id="upload-folder"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
            placeholder="/home/me/for-agent"
            spellcheck={false}
            autocomplete="off"
            aria-invalid={error ? "true" : "false"}
            {...(error ? { "aria-describedby": fieldErrorId("upload-folder") } : {})}
          />
        </Field>
      </fieldset>
      <FormActions message={message} label="Add folder" />
    </form>
  );
}
