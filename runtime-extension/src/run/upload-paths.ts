/**
 * upload_file in the extension, behind the upload rule of `@baton/sdk/policy`: files inside the
 * upload folders go ahead; any other file waits for the user's approval in the panel, whose
 * card shows each full path. The extension cannot read the file system, so a path is resolved
 * by its `.` and `..` only: a symlink inside an upload folder is not followed (Chrome reads
 * where it leads). Chrome's `DOM.setFileInputFiles` takes a relative path ("site-plan.pdf") as
 * it is, gives the input an empty file of that name and then keeps the extension out of the tab,
 * so a relative path resolves in the first upload folder and, with none set, is refused.
 */
import { isInside, lexicalResolver, normalizePath, type UploadRule } from "@baton/sdk/policy";

/**
 * The `chrome.storage.local` key of the upload folders: a path on this computer, or a list of
 * them (unset: every upload is asked about, and relative paths are refused). `baton eval --via
 * extension` sets it to the suite's `files/` and the `--upload-dir` folders.
 */
export const uploadFolderKey = "uploadFolder";

/** The upload folders in what is stored under {@link uploadFolderKey} (one path, or a list). */
export function uploadFoldersOf(stored: unknown): string[] {
  return (Array.isArray(stored) ? stored : [stored]).filter((f): f is string => typeof f === "string" && f !== "");
}

/** The upload rule in the extension: those folders, relative paths in the first, `.` and `..` resolved. */
export function extensionUploadRule(folders: readonly string[]): UploadRule {
  return { folders, relativeTo: folders[0], resolver: lexicalResolver };
}

/**
 * The folders an upload card offers to add for files from outside the upload folders ("Always
 * allow files from …"): each file's own folder, once. A file at the top of a drive gets none:
 * adding the root would let every file on it go up unasked.
 */
export function foldersToOffer(files: readonly string[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const folder = normalizePath(`${f}/..`);
    if (folder === undefined || normalizePath(`${folder}/..`) === folder) continue;
    if (!out.some((o) => o === folder || isInside(o, folder))) out.push(folder);
  }
  return out;
}
