import { ToolErrorCode, ToolFailure } from "@baton/sdk/contract";
import { locateUploads } from "@baton/sdk/policy";
import { describe, expect, it } from "vitest";
import { extensionUploadRule, foldersToOffer } from "./upload-paths.js";

describe("the extension's upload rule", () => {
  it("resolves relative paths in the first upload folder, in its own separator, and .. before deciding", async () => {
    const files = await locateUploads(["site-plan.pdf", "./b.pdf", "../../../etc/passwd", "/tmp/x.png"], extensionUploadRule(["/suite/files/", "/home/ada/Uploads"]));
    expect(files.map((f) => [f.path, f.folder])).toEqual([
      ["/suite/files/site-plan.pdf", "/suite/files"],
      ["/suite/files/b.pdf", "/suite/files"],
      ["/etc/passwd", undefined],
      ["/tmp/x.png", undefined],
    ]);
    const win = await locateUploads(["site-plan.pdf", "..\\..\\Windows\\win.ini"], extensionUploadRule(["C:\\Users\\Ada\\Files"]));
    expect(win.map((f) => [f.path, f.folder])).toEqual([
      ["C:\\Users\\Ada\\Files\\site-plan.pdf", "C:\\Users\\Ada\\Files"],
      ["C:\\Users\\Windows\\win.ini", undefined],
    ]);
  });

  it("refuses a relative path without an upload folder, naming the field and what to do", async () => {
    const err = await locateUploads(["site-plan.pdf"], extensionUploadRule([])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolFailure);
    expect(err).toMatchObject({ code: ToolErrorCode.INVALID_ARGUMENTS, details: { field: "paths" } });
    expect((err as ToolFailure).message).toContain('"site-plan.pdf" is not a full path');
    // An absolute path without a folder is located (and then asked about).
    expect((await locateUploads(["/home/ada/a.pdf"], extensionUploadRule([])))[0]).toMatchObject({ path: "/home/ada/a.pdf", folder: undefined });
  });

  it("offers each outside file's own folder once, in its own separator, and never a drive's root", () => {
    expect(foldersToOffer(["/home/ada/Docs/a.pdf", "/home/ada/Docs/b.pdf", "/home/ada/Docs/old/c.pdf", "/x.txt"])).toEqual(["/home/ada/Docs"]);
    expect(foldersToOffer(["C:\\Users\\Ada\\a.pdf", "C:\\b.pdf"])).toEqual(["C:\\Users\\Ada"]);
  });
});
