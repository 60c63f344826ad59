/**
 * The upload folders as the panel keeps them in `chrome.storage.local` (apart from
 * `upload-paths.ts`, which `baton eval` reads too and which must not need Chrome's types).
 */
import { uploadFolderKey, uploadFoldersOf } from "./upload-paths.js";

/** The upload folders as stored now. */
export async function readUploadFolders(): Promise<string[]> {
  return uploadFoldersOf((await chrome.storage.local.get(uploadFolderKey))[uploadFolderKey]);
}

/** Adds folders to the upload folders (the one upload rule), keeping those already there. */
export async function addUploadFolders(folders: readonly string[]): Promise<string[]> {
  const now = await readUploadFolders();
  const next = [...now, ...folders.filter((f) => !now.includes(f))];
  await chrome.storage.local.set({ [uploadFolderKey]: next });
  return next;
}

/** Removes one folder from the upload folders. */
export async function removeUploadFolder(folder: string): Promise<string[]> {
  const next = (await readUploadFolders()).filter((f) => f !== folder);
  await chrome.storage.local.set({ [uploadFolderKey]: next });
  return next;
}
