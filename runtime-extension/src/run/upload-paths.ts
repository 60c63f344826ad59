/**
 * Where upload_file's paths point. Chrome's `DOM.setFileInputFiles` takes paths on this
 * computer as they are: it does not resolve a relative one ("site-plan.pdf") against anything,
 * yet accepts it, gives the input an empty file of that name and grants the page's process
 * that bogus path, after which Chrome no longer lets the extension (or any DevTools client)
 * reach the tab. So a relative path is resolved in the upload folder, when one is set, and
 * otherwise refused before it reaches Chrome.
 */
import { ToolErrorCode, ToolFailure } from "@baton/sdk/contract";

/**
 * The `chrome.storage.local` key of the folder relative upload paths resolve in (a path on
 * this computer; unset: relative paths are refused). `baton eval --via extension` sets it to
 * the suite's `files/`.
 */
export const uploadFolderKey = "uploadFolder";

/** Whether `path` is absolute on POSIX or Windows (`/a`, `C:\a`, `C:/a`, `\\server\share`). */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * `paths` with each relative one joined to `folder`, in the folder's own separator; without a
 * folder, a relative path fails the call (INVALID_ARGUMENTS on `paths`) with what to do instead.
 */
export function resolveUploadPaths(paths: readonly string[], folder: string | undefined): string[] {
  return paths.map((path) => {
    if (isAbsolutePath(path)) return path;
    if (!folder || !isAbsolutePath(folder)) {
      throw new ToolFailure(
        ToolErrorCode.INVALID_ARGUMENTS,
        `${JSON.stringify(path.slice(0, 300))} is not a full path. upload_file needs where the file is on this computer (like /home/ada/site-plan.pdf or C:\\Users\\Ada\\site-plan.pdf): ask the user for it.`,
        { field: "paths" },
      );
    }
    const sep = folder.includes("\\") && !folder.includes("/") ? "\\" : "/";
    const base = folder.endsWith(sep) ? folder.slice(0, -1) : folder;
    return `${base}${sep}${path.replace(/^\.[\\/]/, "")}`;
  });
}
