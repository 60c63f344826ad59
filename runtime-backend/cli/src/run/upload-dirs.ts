import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { ApprovalDecision } from "@baton/sdk/client";
import { ToolErrorCode } from "@baton/sdk/contract";
import { nodePathResolver } from "@baton/sdk/node";
import { type OutsideDecision, outsideFolders, rootFolderProblem, type UploadFile, type UploadRule } from "@baton/sdk/policy";
import { type Parsed, UsageError } from "../command/args.js";

/**
 * The folders named with `--upload-dir` (repeatable; `baton run` and `baton eval`), as absolute
 * paths; each must be a directory, and not a drive's root. None: every upload asks (`baton run`) or only the suite's
 * files are taken (`baton eval`).
 */
export function uploadDirsOf(p: Parsed): string[] {
  return (p.all.get("upload-dir") ?? []).map((v) => {
    if (v === true || v === "") throw new UsageError("--upload-dir needs a folder");
    const dir = resolve(v);
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) throw new UsageError(`--upload-dir ${v} is not a folder`);
    const root = rootFolderProblem(dir);
    if (root) throw new UsageError(`--upload-dir ${v}: ${root}`);
    return dir;
  });
}

/** The upload rule on this machine: `folders`, relative paths resolved in `relativeTo`, symlinks followed. */
export function nodeUploadRule(folders: readonly string[], relativeTo: string): UploadRule {
  return { folders, relativeTo, resolver: nodePathResolver };
}

/** Files as a person reads them in a prompt or a refusal: each full path, quoted. */
export function filesInWords(files: readonly UploadFile[]): string {
  return files.map((f) => JSON.stringify(f.path)).join(", ");
}

/** A refusal of files outside `folders` by a surface with no one to ask (`why` says which, and what to do). */
export function refuseOutside(files: readonly UploadFile[], folders: readonly string[], why: string): OutsideDecision {
  return {
    approved: false,
    code: ToolErrorCode.PERMISSION_DENIED,
    reason: `Refused: ${filesInWords(files)} ${files.length > 1 ? "are" : "is"} ${outsideFolders(folders)}, ${why}`,
  };
}

/** A person's answer about files outside the folders, as the upload rule takes it (a "no" is DENIED, with the reason). */
export function personDecided(d: ApprovalDecision, files: readonly UploadFile[]): OutsideDecision {
  return d.approved
    ? { approved: true }
    : { approved: false, code: ToolErrorCode.DENIED, reason: `${d.reason ?? "The user did not allow it."} ${filesInWords(files)} was not uploaded: do not try another path; ask the user which file to upload.` };
}
