import { ToolErrorCode, ToolFailure } from "@baton/sdk/contract";
import { locateUploads } from "@baton/sdk/policy";
import { describe, expect, it } from "vitest";
import { checkUploadFolder, extensionUploadRule, foldersToOffer } from "./upload-paths.js";

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

  it("checks a folder typed in Settings as the rule resolves paths: absolute, normalised, never a root, never twice", () => {
    expect(checkUploadFolder(" /home/ada/./Docs/old/../for-agent// ", [])).toEqual({ folder: "/home/ada/Docs/for-agent" });
    expect(checkUploadFolder("c:/Users/Ada/Files/", [])).toEqual({ folder: "C:\\Users\\Ada\\Files" });
    expect(checkUploadFolder("\\\\nas\\share\\scans", [])).toEqual({ folder: "\\\\nas\\share\\scans" });
    expect(checkUploadFolder("   ", []).problem).toMatch(/^Type a folder's full path, like \/home\/me\/for-agent/);
    expect(checkUploadFolder("for-agent", []).problem).toMatch(/^"for-agent" is not a full path: type where the folder is on this computer/);
    expect(checkUploadFolder("~/for-agent", []).problem).toContain("is not a full path");
    for (const root of ["/", "/home/..", "C:\\", "D:/", "\\\\nas\\share"]) expect(checkUploadFolder(root, []).problem, root).toMatch(/is a root folder: every file under it would upload without asking/);
    expect(checkUploadFolder("/home/ada/Docs/", ["/srv/files", "/home/ada/Docs"]).problem).toBe("/home/ada/Docs is already an upload folder.");
    expect(checkUploadFolder("/home/ada/Docs/", ["/home/ada/Docs/./"]).problem).toBe("/home/ada/Docs is already an upload folder.");
    expect(checkUploadFolder("/home/ada/Docs/tax", ["/home/ada/Docs"]).problem).toBe("/home/ada/Docs/tax is inside the upload folder /home/ada/Docs already: its files upload without asking.");
    // A folder beside one (a shared prefix) or above one is a new folder.
    expect(checkUploadFolder("/home/ada/Docs2", ["/home/ada/Docs"])).toEqual({ folder: "/home/ada/Docs2" });
    expect(checkUploadFolder("/home/ada", ["/home/ada/Docs"])).toEqual({ folder: "/home/ada" });
  });
});
