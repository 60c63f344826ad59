/**
 * Which files `upload_file` may take, written once and asked by every surface (`baton run`,
 * `baton eval`, `baton mcp`, the extension): files inside a folder the user named, after `.`
 * and `..` are resolved and symlinks followed; anything else only with an approval that shows
 * the full path (a surface with no one to ask refuses). Runtime-neutral: following symlinks is
 * the {@link PathResolver}'s job (Node: `nodePathResolver` in `@baton/sdk/node`; the extension,
 * which cannot see the file system, resolves `.` and `..` only).
 */
import { ToolErrorCode, ToolFailure } from "../contract/index.js";

/** Whether `path` is absolute on POSIX or Windows (`/a`, `C:\a`, `C:/a`, `\\server\share`). */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/** A path's root and separator: POSIX `/`, a Windows drive `C:\`, or a UNC share `\\server\share\`. */
function rootOf(path: string): { root: string; rest: string; sep: "/" | "\\" } | undefined {
  if (path.startsWith("\\\\")) {
    const [server = "", share = "", ...rest] = path.slice(2).split(/[\\/]+/);
    return { root: `\\\\${server}\\${share}\\`, rest: rest.join("\\"), sep: "\\" };
  }
  const drive = /^([A-Za-z]):[\\/]/.exec(path);
  if (drive) return { root: `${(drive[1] as string).toUpperCase()}:\\`, rest: path.slice(3), sep: "\\" };
  return path.startsWith("/") ? { root: "/", rest: path.slice(1), sep: "/" } : undefined;
}

/**
 * `path` made absolute (joined to `base` when relative) and normalised in its own style: `.`
 * and `..` resolved (never above the root), separators collapsed, no trailing separator.
 * Undefined for a relative path with no absolute base.
 */
export function normalizePath(path: string, base?: string): string | undefined {
  const full = isAbsolutePath(path) ? path : base && isAbsolutePath(base) ? `${base}${base.includes("\\") && !base.includes("/") ? "\\" : "/"}${path}` : undefined;
  const parsed = full === undefined ? undefined : rootOf(full);
  if (!parsed) return undefined;
  const parts: string[] = [];
  for (const part of parsed.rest.split(/[\\/]+/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parsed.root + parts.join(parsed.sep);
}

/**
 * Whether a normalised path is the top of its drive: `/`, `C:\`, `\\server\share\`. An upload
 * folder there would let every file on the drive go up unasked.
 */
export function isRootFolder(folder: string): boolean {
  return normalizePath(`${folder}/..`) === folder;
}

/**
 * Why a normalised folder may not be an upload folder, or undefined when it may: every surface
 * that takes one (the panel's Settings, `--upload-dir`) refuses a drive's root in these words.
 */
export function rootFolderProblem(folder: string): string | undefined {
  return isRootFolder(folder) ? `${folder} is a root folder: every file under it would upload without asking. Name a folder inside it.` : undefined;
}

/** Whether `path` is strictly inside `folder` (both normalised; Windows paths compared without case). */
export function isInside(folder: string, path: string): boolean {
  const windows = folder.includes("\\");
  const f = windows ? folder.toLowerCase() : folder;
  const p = windows ? path.toLowerCase() : path;
  const sep = windows ? "\\" : "/";
  const prefix = f.endsWith(sep) ? f : f + sep;
  return p !== f && p.startsWith(prefix);
}

/** Follows a path to the file it names. */
export interface PathResolver {
  /**
   * The path with symlinks followed (an absolute, normalised path), and whether the file is
   * there; a resolver that cannot see the file system returns it as given and `exists: true`.
   */
  real(path: string): Promise<{ readonly path: string; readonly exists: boolean }>;
}

/** A resolver that cannot see the file system (the extension): `.` and `..` only, no symlinks. */
export const lexicalResolver: PathResolver = {
  real: async (path) => ({ path, exists: true }),
};

/** The upload rule of one surface. */
export interface UploadRule {
  /** The folders the user named (absolute); uploads from inside them need no approval. */
  readonly folders: readonly string[];
  /** Where relative paths resolve (absolute); unset: a relative path is refused. */
  readonly relativeTo?: string | undefined;
  readonly resolver: PathResolver;
}

/** Where one upload's file is, as the rule sees it. */
export interface UploadFile {
  /** As the model gave it. */
  readonly given: string;
  /** Absolute, normalised, symlinks followed: what is uploaded, and what an approval shows. */
  readonly path: string;
  readonly exists: boolean;
  /** The named folder it is inside (as resolved); undefined: outside every one. */
  readonly folder: string | undefined;
}

/** The message a missing file gets (the engine's NOT_FOUND too). */
export function noFileMessage(path: string): string {
  return `No file at ${JSON.stringify(path.slice(0, 300))}. Check the path or ask the user for it.`;
}

/** Where each of `paths` is: resolved, followed, and inside a named folder or not. */
export async function locateUploads(paths: readonly string[], rule: UploadRule): Promise<UploadFile[]> {
  const folders = await Promise.all(
    rule.folders.map(async (f) => {
      const n = normalizePath(f);
      return n === undefined ? undefined : (await rule.resolver.real(n)).path;
    }),
  );
  return Promise.all(
    paths.map(async (given) => {
      const abs = normalizePath(given, rule.relativeTo);
      if (abs === undefined) {
        throw new ToolFailure(
          ToolErrorCode.INVALID_ARGUMENTS,
          `${JSON.stringify(given.slice(0, 300))} is not a full path. upload_file needs where the file is on this computer (like /home/ada/site-plan.pdf or C:\\Users\\Ada\\site-plan.pdf): ask the user for it.`,
          { field: "paths" },
        );
      }
      const real = await rule.resolver.real(abs);
      const path = normalizePath(real.path) ?? abs;
      return { given, path, exists: real.exists, folder: folders.find((f) => f !== undefined && isInside(f, path)) };
    }),
  );
}

/** A surface's answer about files outside the named folders. */
export type OutsideDecision =
  | { readonly approved: true }
  /** `code`: DENIED when a person said no, PERMISSION_DENIED when there was no one to ask. */
  | { readonly approved: false; readonly code: ToolErrorCode; readonly reason: string };

/** Options of {@link guardUploads}. */
export interface UploadGuard<Ctx> {
  readonly rule: UploadRule;
  /** Decides files outside every named folder (their full paths): ask the person, or refuse. */
  outside(files: readonly UploadFile[], ctx: Ctx): Promise<OutsideDecision>;
}

/**
 * An upload_file handler behind the rule: each path is located ({@link locateUploads}); a
 * missing file fails NOT_FOUND before anyone is asked; files outside the named folders go to
 * `outside`, and a refusal fails the call with its code and reason; the handler then gets the
 * resolved paths (symlinks followed), so what was checked is what is uploaded.
 */
export function guardUploads<P extends { readonly paths: readonly string[] }, Ctx, R>(
  handler: (params: P, ctx: Ctx) => Promise<R>,
  guard: UploadGuard<NoInfer<Ctx>>,
): (params: P, ctx: Ctx) => Promise<R> {
  return async (params, ctx) => {
    const files = await locateUploads(params.paths, guard.rule);
    const missing = files.find((f) => !f.exists);
    if (missing) throw new ToolFailure(ToolErrorCode.NOT_FOUND, noFileMessage(missing.path), { field: "paths" });
    const outside = files.filter((f) => f.folder === undefined);
    if (outside.length > 0) {
      const decision = await guard.outside(outside, ctx);
      if (!decision.approved) throw new ToolFailure(decision.code, decision.reason, { field: "paths" });
    }
    return handler({ ...params, paths: files.map((f) => f.path) }, ctx);
  };
}

/**
 * Where a refused file is, in words that follow "is" or "a file": "outside the upload folder
 * /srv/files", or, with no folder named, "not in an upload folder (none is named)".
 */
export function outsideFolders(folders: readonly string[]): string {
  if (folders.length === 0) return "not in an upload folder (none is named)";
  return folders.length === 1 ? `outside the upload folder ${folders[0]}` : `outside the upload folders ${folders.join(", ")}`;
}
