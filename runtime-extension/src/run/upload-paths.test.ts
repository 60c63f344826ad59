import { ToolErrorCode, ToolFailure } from "@baton/sdk/contract";
import { describe, expect, it } from "vitest";
import { isAbsolutePath, resolveUploadPaths } from "./upload-paths.js";

describe("upload paths", () => {
  it("tells absolute paths from relative ones on POSIX and Windows", () => {
    for (const p of ["/home/ada/a.pdf", "C:\\Users\\Ada\\a.pdf", "c:/a.pdf", "\\\\server\\share\\a.pdf"]) expect(isAbsolutePath(p), p).toBe(true);
    for (const p of ["a.pdf", "./a.pdf", "docs/a.pdf", "~/a.pdf", "C:a.pdf", ""]) expect(isAbsolutePath(p), p).toBe(false);
  });

  it("keeps absolute paths and joins relative ones to the upload folder in its separator", () => {
    expect(resolveUploadPaths(["/tmp/x.png", "site-plan.pdf", "./b.pdf"], "/suite/files/")).toEqual(["/tmp/x.png", "/suite/files/site-plan.pdf", "/suite/files/b.pdf"]);
    expect(resolveUploadPaths(["site-plan.pdf"], "C:\\Users\\Ada\\Files")).toEqual(["C:\\Users\\Ada\\Files\\site-plan.pdf"]);
  });

  it("refuses a relative path without an upload folder, naming the field and what to do", () => {
    expect(resolveUploadPaths(["/home/ada/a.pdf"], undefined)).toEqual(["/home/ada/a.pdf"]);
    for (const folder of [undefined, "files"]) {
      let err: unknown;
      try {
        resolveUploadPaths(["site-plan.pdf"], folder);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ToolFailure);
      expect((err as ToolFailure).code).toBe(ToolErrorCode.INVALID_ARGUMENTS);
      expect((err as ToolFailure).details.field).toBe("paths");
      expect((err as Error).message).toContain('"site-plan.pdf" is not a full path');
    }
  });
});
