/**
 * The upload rule on a real file system (Node's resolver follows symlinks) and on paths alone
 * (the extension's resolver): inside the named folder, a `..` escape, an absolute path outside,
 * a symlink inside that leads out, a missing file, relative paths, Windows paths.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import { afterAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../contract/index.js";
import { nodePathResolver } from "../node/upload-resolver.js";
import { guardUploads, isAbsolutePath, isInside, isRootFolder, lexicalResolver, locateUploads, normalizePath, rootFolderProblem, type OutsideDecision, type UploadFile } from "./upload-rule.js";

const root = realpathSync(mkdtempSync(join(tmpdir(), "baton-upload-rule-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const folder = join(root, "uploads");
const secretDir = join(root, "private");
mkdirSync(join(folder, "docs"), { recursive: true });
mkdirSync(secretDir);
writeFileSync(join(folder, "docs", "plan.pdf"), "plan");
writeFileSync(join(secretDir, "id_rsa"), "key");
symlinkSync(join(secretDir, "id_rsa"), join(folder, "innocent.pdf"));
symlinkSync(secretDir, join(folder, "linked"));
const rule = { folders: [folder], relativeTo: folder, resolver: nodePathResolver };

describe("where an upload's file is", () => {
  it("inside the named folder: absolute, relative, with . and .. that stay inside", async () => {
    const files = await locateUploads([join(folder, "docs", "plan.pdf"), "docs/plan.pdf", `${folder}/docs/../docs/./plan.pdf`], rule);
    for (const f of files) expect(f).toMatchObject({ path: join(folder, "docs", "plan.pdf"), exists: true, folder });
  });

  it("outside: a .. escape, an absolute path elsewhere, a symlink inside that leads out, a file under a linked folder", async () => {
    const files = await locateUploads(["../private/id_rsa", `${folder}/docs/../../private/id_rsa`, join(secretDir, "id_rsa"), "innocent.pdf", "linked/id_rsa"], rule);
    for (const f of files) expect(f, f.given).toMatchObject({ path: join(secretDir, "id_rsa"), exists: true, folder: undefined });
    // A missing file under the linked folder is placed where the link leads.
    expect((await locateUploads(["linked/none.txt"], rule))[0]).toMatchObject({ path: join(secretDir, "none.txt"), exists: false, folder: undefined });
  });

  it("refuses a relative path when nothing says where it resolves", async () => {
    const err = await locateUploads(["plan.pdf"], { folders: [], resolver: lexicalResolver }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolFailure);
    expect((err as ToolFailure).code).toBe(ToolErrorCode.INVALID_ARGUMENTS);
    expect((err as ToolFailure).message).toContain('"plan.pdf" is not a full path');
  });

  it("normalises POSIX and Windows paths lexically, never above the root (the extension's resolver)", async () => {
    for (const p of ["/home/ada/a.pdf", "C:\\Users\\Ada\\a.pdf", "c:/a.pdf", "\\\\server\\share\\a.pdf"]) expect(isAbsolutePath(p), p).toBe(true);
    for (const p of ["a.pdf", "./a.pdf", "~/a.pdf", "C:a.pdf", ""]) expect(isAbsolutePath(p), p).toBe(false);
    expect(normalizePath("../../../etc/passwd", "/suite/files")).toBe("/etc/passwd");
    expect(normalizePath("/../../x//y/./z/")).toBe("/x/y/z");
    expect(normalizePath("..\\..\\Windows\\win.ini", "C:\\Users\\Ada\\Files")).toBe("C:\\Users\\Windows\\win.ini");
    expect(normalizePath("c:/Users/Ada/../Bob/a.pdf")).toBe("C:\\Users\\Bob\\a.pdf");
    expect(normalizePath("plan.pdf")).toBeUndefined();
    expect(isInside("C:\\Users\\Ada\\Files", "c:\\users\\ada\\files\\a.pdf")).toBe(true);
    expect(isInside("/suite/files", "/suite/files-evil/a.pdf")).toBe(false);
    expect(isInside("/suite/files", "/suite/files")).toBe(false);
    const ext = { folders: ["/suite/files"], relativeTo: "/suite/files", resolver: lexicalResolver };
    expect((await locateUploads(["../../../etc/passwd", "a/../b.pdf"], ext)).map((f) => [f.path, f.folder])).toEqual([
      ["/etc/passwd", undefined],
      ["/suite/files/b.pdf", "/suite/files"],
    ]);
  });
});

describe("an upload handler behind the rule", () => {
  const uploaded: string[][] = [];
  const handler = async (p: { paths: readonly string[] }) => (uploaded.push([...p.paths]), { files: p.paths.length });
  const asked: string[][] = [];
  const guard = (answer: OutsideDecision) => guardUploads(handler, { rule, outside: async (files: readonly UploadFile[]) => (asked.push(files.map((f) => f.path)), answer) });

  it("uploads files inside the folder without asking, by their resolved paths", async () => {
    await guard({ approved: false, code: ToolErrorCode.PERMISSION_DENIED, reason: "no" })({ paths: ["docs/../docs/plan.pdf"] }, undefined);
    expect(uploaded.at(-1)).toEqual([join(folder, "docs", "plan.pdf")]);
    expect(asked).toEqual([]);
  });

  it("asks about files outside with their full paths; a refusal fails the call and uploads nothing", async () => {
    const before = uploaded.length;
    const err = await guard({ approved: false, code: ToolErrorCode.DENIED, reason: "The user said no." })({ paths: ["docs/plan.pdf", "innocent.pdf"] }, undefined).catch((e: unknown) => e);
    expect((err as ToolFailure).code).toBe(ToolErrorCode.DENIED);
    expect((err as ToolFailure).message).toBe("The user said no.");
    expect(asked.at(-1)).toEqual([join(secretDir, "id_rsa")]);
    expect(uploaded.length).toBe(before);
    await guard({ approved: true })({ paths: ["innocent.pdf"] }, undefined);
    expect(uploaded.at(-1)).toEqual([join(secretDir, "id_rsa")]);
  });

  it("fails a missing file before anyone is asked", async () => {
    const n = asked.length;
    const err = await guard({ approved: true })({ paths: [join(secretDir, "nothing.pdf")] }, undefined).catch((e: unknown) => e);
    expect((err as ToolFailure).code).toBe(ToolErrorCode.NOT_FOUND);
    expect(asked.length).toBe(n);
  });
});

describe("isRootFolder", () => {
  it("is true for the top of a drive only", () => {
    for (const r of ["/", "C:\\", "\\\\nas\\share\\"]) expect(isRootFolder(normalizePath(r) ?? ""), r).toBe(true);
    for (const f of ["/home", "C:\\Users", "\\\\nas\\share\\docs"]) expect(isRootFolder(normalizePath(f) ?? ""), f).toBe(false);
  });
  it("says why a root may not be an upload folder, and nothing for any other folder", () => {
    expect(rootFolderProblem("/")).toBe("/ is a root folder: every file under it would upload without asking. Name a folder inside it.");
    expect(rootFolderProblem("/home/me")).toBeUndefined();
  });
});
