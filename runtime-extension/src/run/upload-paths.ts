/**
 * upload_file in the extension, behind the upload rule of `@baton/sdk/policy`: files inside the
 * upload folders go ahead; any other file waits for the user's approval in the panel, whose
 * card shows each full path. The extension cannot read the file system, so a path is resolved
 * by its `.` and `..` only: a symlink inside an upload folder is not followed (Chrome reads
 * where it leads). Chrome's `DOM.setFileInputFiles` takes a relative path ("site-plan.pdf") as
 * it is, gives the input an empty file of that name and then keeps the extension out of the tab,
 * so a relative path resolves in the first upload folder and, with none set, is refused.
 */
import { isInside, isRootFolder, lexicalResolver, normalizePath, rootFolderProblem, type UploadRule } from "@baton/sdk/policy";

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

/**
 * An upload of files from outside the upload folders, as its card shows it: their full paths,
 * the folders (none when unset), and the files' own folders the card offers to add ("Always
 * allow files from", `foldersToOffer`).
 */
export interface UploadAsk {
  readonly files: readonly string[];
  readonly folders: readonly string[];
  readonly offer: readonly string[];
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
    if (folder === undefined || isRootFolder(folder)) continue;
    if (!out.some((o) => o === folder || isInside(o, folder))) out.push(folder);
  }
  return out;
}

/** What {@link checkUploadFolder} makes of a folder a person typed: the folder to add, or why not. */
export type UploadFolderCheck = { readonly folder: string; readonly problem?: undefined } | { readonly folder?: undefined; readonly problem: string };

/**
 * A folder a person types in Settings, checked by the upload rule's own path handling before it
 * is added: it must be absolute (a relative one has nothing to resolve against), it is normalised
 * as the rule normalises the files it compares (`.`, `..`, repeated and trailing separators), and
 * it may not be a drive's root (every file on it would go up unasked) nor be a folder the upload
 * folders already hold (the same one, or one inside one of them).
 */
export function checkUploadFolder(typed: string, folders: readonly string[]): UploadFolderCheck {
  const path = typed.trim();
  const example = "like /home/me/for-agent or C:\\Users\\Me\\for-agent";
  if (path === "") return { problem: `Type a folder's full path, ${example}.` };
  const folder = normalizePath(path);
  if (folder === undefined) return { problem: `"${path}" is not a full path: type where the folder is on this computer, ${example}.` };
  const root = rootFolderProblem(folder);
  if (root) return { problem: root };
  for (const f of folders) {
    const held = normalizePath(f);
    if (held === folder) return { problem: `${folder} is already an upload folder.` };
    if (held !== undefined && isInside(held, folder)) return { problem: `${folder} is inside the upload folder ${f} already: its files upload without asking.` };
  }
  return { folder };
}
