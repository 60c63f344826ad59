/**
 * `baton mcp` through the official MCP client, over stdio and Streamable HTTP, on real
 * Chromium and app-like pages served on loopback.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveStatic, type StaticServer } from "../run/static-server.js";
import { batonBin, type HttpServerProcess, httpServer, mcpSiteDir, refOf, stdioClient, textOf } from "./mcp-testing.js";
import { servedTools } from "./mcp-server.js";

let site: StaticServer;
/** Another site on loopback (another port): the hostile site the allowed pages lead to. */
let hostile: StaticServer;
beforeAll(async () => {
  hostile = await serveStatic(mcpSiteDir);
  // `/attack.html`: every way a page can lead to a local file or to the hostile site.
  site = await serveStatic(mcpSiteDir, (_req, res, path) => {
    if (path !== "/attack.html") return false;
    res.writeHead(200, { "content-type": "text/html" }).end(
      `<title>Attack</title><a href="file:///etc/passwd">local file</a> <a href="file:///etc/" target="_blank">local folder</a>
       <a href="${hostile.url}/help.html" target="_blank">hostile tab</a> <iframe title="hostile frame" src="${hostile.url}/widget.html"></iframe>`,
    );
    return true;
  });
});
afterAll(async () => {
  await site?.close();
  await hostile?.close();
});

/** What a local file or directory listing would show. */
const fileContent = /root:x:0|Index of \/etc|parent directory/;

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;

describe("baton mcp over stdio", () => {
  let client: Client;
  beforeAll(async () => {
    client = await stdioClient();
  });
  afterAll(() => client?.close());

  it("lists the catalog's client tools with their schemas and risk annotations", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(servedTools.map((t) => t.name));
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["navigate", "take_snapshot", "click", "type_text", "open_tab", "list_tabs", "screenshot"]));
    expect(tools.find((t) => t.name === "ask_user")).toBeUndefined();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("take_snapshot")!.annotations).toEqual({ title: "Read page", readOnlyHint: true });
    expect(byName.get("click")!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get("navigate")!.inputSchema).toMatchObject({ type: "object", required: ["url"] });
  });

  it("navigates, reads the page, types, clicks a div button and sees the result", async () => {
    const nav = await call(client, "navigate", { url: `${site.url}/index.html` });
    expect(nav.isError).toBeFalsy();
    expect(JSON.parse(textOf(nav))).toMatchObject({ url: `${site.url}/index.html`, title: "Notes" });
    const snap = textOf(await call(client, "take_snapshot"));
    expect(snap).toContain('# Notes');
    const name = refOf(snap, /textbox "Name"/);
    const save = refOf(snap, /"Save"/);
    const typed = await call(client, "type_text", { ref: name, text: "Ada" });
    expect(typed.isError).toBeFalsy();
    expect(JSON.parse(textOf(typed)).evidence.focused).toMatchObject({ ref: name, value: "Ada" });
    expect((await call(client, "click", { ref: save })).isError).toBeFalsy();
    // Snapshot diffs are off unless asked for (--snapshot-diffs): the second read is the whole page.
    const again = textOf(await call(client, "take_snapshot"));
    expect(again).toContain("Saved: Ada");
    expect(again).toContain('# Notes');
    expect(again).not.toContain("Diff against");
    // The cross-origin widget is part of the page.
    expect(snap).toMatch(/button "Join the partner programme"/);
  });

  it("returns screenshots as image content", async () => {
    const shot = await call(client, "screenshot");
    const image = shot.content.find((c) => c.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/jpeg" });
    const bytes = Buffer.from((image as { data: string }).data, "base64");
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(textOf(shot)).not.toMatch(/bytes\]/);
  });

  it("opens, lists, switches and closes tabs", async () => {
    const opened = JSON.parse(textOf(await call(client, "open_tab", { url: `${site.url}/help.html` })));
    expect(opened.tab).toMatchObject({ title: "Help", active: true });
    const listed = JSON.parse(textOf(await call(client, "list_tabs")));
    expect(listed.tabs).toHaveLength(2);
    expect(textOf(await call(client, "take_snapshot"))).toContain('# Help');
    const first = listed.tabs.find((t: { title: string }) => t.title === "Notes");
    expect((await call(client, "switch_tab", { tab_id: first.tab_id })).isError).toBeFalsy();
    expect(textOf(await call(client, "take_snapshot"))).toContain('# Notes');
    expect((await call(client, "close_tab", { tab_id: opened.tab.tab_id })).isError).toBeFalsy();
    expect(JSON.parse(textOf(await call(client, "list_tabs"))).tabs).toHaveLength(1);
  });

  it("refuses open_tab to a local file or the browser's own pages before any tab opens", async () => {
    for (const url of ["file:///etc/", "file:///etc/passwd", "chrome://version"]) {
      const refused = await call(client, "open_tab", { url });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/^Error permission_denied \(url\): Only http and https pages \(and about:blank\) can be opened, not (file|chrome): URLs/);
    }
    expect(JSON.parse(textOf(await call(client, "list_tabs"))).tabs).toHaveLength(1);
    expect(textOf(await call(client, "take_snapshot"))).not.toMatch(fileContent);
  });

  it("answers tool errors and bad arguments as isError results that say what to do", async () => {
    const unknownRef = await call(client, "click", { ref: "e999" });
    expect(unknownRef.isError).toBe(true);
    expect(textOf(unknownRef)).toMatch(/^Error unknown_ref \(ref\): .*e999/);
    const missing = await call(client, "navigate", {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^Error invalid_arguments .*"url" is required/);
    const wrongType = await call(client, "scroll", { direction: "sideways" });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toMatch(/direction/);
    const unknownTool = await call(client, "ask_user", { question: "?" });
    expect(unknownTool.isError).toBe(true);
    expect(textOf(unknownTool)).toMatch(/^Error unknown_tool: There is no tool "ask_user"/);
  });

  it("refuses an irreversible click when the client cannot ask the user", async () => {
    const snap = textOf(await call(client, "take_snapshot"));
    const del = refOf(snap, /button "Delete account"/);
    const refused = await call(client, "click", { ref: del, irreversible: true });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Error permission_denied: Refused: this action cannot be undone \(Clicking 'Delete account' \(irreversible\)\).*--allow-irreversible/);
    expect(textOf(await call(client, "take_snapshot"))).not.toContain("Account deleted");
  });

  it("keeps uploads inside the upload directory", async () => {
    const snap = textOf(await call(client, "take_snapshot"));
    const refused = await call(client, "upload_file", { ref: refOf(snap, /Attachment/), paths: ["/etc/passwd"] });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`Refused: "/etc/passwd" is outside the upload folder ${process.cwd()}, and baton mcp has no one to ask.`);
  });
});

describe("baton mcp asks the user through elicitation", () => {
  it("runs an irreversible click the user accepts, and not one they decline", async () => {
    const client = await stdioClient([], { elicitation: { form: {} } });
    const answers = ["decline", "accept"] as const;
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params.message);
      return { action: answers[asked.length - 1] ?? "decline" };
    });
    try {
      await call(client, "navigate", { url: `${site.url}/index.html` });
      const del = refOf(textOf(await call(client, "take_snapshot")), /button "Delete account"/);
      const declined = await call(client, "click", { ref: del, irreversible: true });
      expect(textOf(declined)).toMatch(/^Error denied: The user did not allow this irreversible action \(Clicking 'Delete account' \(irreversible\)\)/);
      const accepted = await call(client, "click", { ref: del, irreversible: true });
      expect(accepted.isError).toBeFalsy();
      expect(asked).toEqual([expect.stringContaining("cannot be undone: Clicking 'Delete account'"), expect.any(String)]);
      expect(textOf(await call(client, "take_snapshot"))).toContain("Account deleted");
      // An ordinary click is not asked about.
      await call(client, "click", { ref: refOf(textOf(await call(client, "take_snapshot")), /"Save"/) });
      expect(asked).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
});

describe("baton mcp's upload folder is never a drive's root", () => {
  it("refuses --upload-dir / before it starts, in the words the panel uses", () => {
    const r = spawnSync(process.execPath, [batonBin, "mcp", "--upload-dir", "/"], { encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--upload-dir /: / is a root folder: every file under it would upload without asking. Name a folder inside it.");
  });

  it("started in / (as MCP clients often start servers) with no --upload-dir, has no upload folder, says so, and refuses every file", async () => {
    const server = await httpServer(["--allowed-origins", site.url], {}, "/");
    try {
      expect(server.output()).toContain("baton mcp: no upload folder: the working directory / is a drive's root");
      const client = await server.connect();
      try {
        await call(client, "navigate", { url: `${site.url}/index.html` });
        const ref = refOf(textOf(await call(client, "take_snapshot")), /Attachment/);
        const refused = textOf(await call(client, "upload_file", { ref, paths: ["/etc/hostname"] }));
        expect(refused).toContain('Error permission_denied (paths): Refused: "/etc/hostname" is not in an upload folder (none is named), and baton mcp has no one to ask');
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });
});

describe("baton mcp over Streamable HTTP", () => {
  let server: HttpServerProcess;
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "baton-mcp-private-")));
  const uploads = join(outside, "uploads");
  beforeAll(async () => {
    mkdirSync(uploads);
    writeFileSync(join(uploads, "note.txt"), "hello");
    writeFileSync(join(outside, "id_rsa"), "private key");
    symlinkSync(join(outside, "id_rsa"), join(uploads, "innocent.txt"));
    server = await httpServer(["--allowed-origins", site.url, "--upload-dir", uploads]);
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(outside, { recursive: true, force: true });
  });

  it("takes uploads only from --upload-dir: a .. escape, a symlink leading out and an absolute path elsewhere are refused, naming the folder", async () => {
    const client = await server.connect();
    try {
      await call(client, "navigate", { url: `${site.url}/index.html` });
      const ref = refOf(textOf(await call(client, "take_snapshot")), /Attachment/);
      for (const path of ["../id_rsa", "innocent.txt", join(outside, "id_rsa"), `${uploads}/../id_rsa`]) {
        const refused = textOf(await call(client, "upload_file", { ref, paths: [path] }));
        expect(refused, path).toContain(`Error permission_denied (paths): Refused: ${JSON.stringify(join(outside, "id_rsa"))} is outside the upload folder ${uploads}, and baton mcp has no one to ask.`);
      }
      // A file inside it is uploaded, by a relative path.
      expect(JSON.parse(textOf(await call(client, "upload_file", { ref, paths: ["note.txt"] }))).files).toEqual(["note.txt"]);
    } finally {
      await client.close();
    }
  });

  it("gives each client session its own page", async () => {
    const a = await server.connect();
    const b = await server.connect();
    try {
      expect((await a.listTools()).tools.length).toBe(servedTools.length);
      await call(a, "navigate", { url: `${site.url}/help.html` });
      await call(b, "navigate", { url: `${site.url}/index.html` });
      expect(textOf(await call(a, "take_snapshot"))).toContain('# Help');
      expect(textOf(await call(b, "take_snapshot"))).toContain('# Notes');
      const tabs = JSON.parse(textOf(await call(a, "list_tabs"))).tabs;
      expect(tabs.map((t: { title: string }) => t.title)).toEqual(["Help"]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("holds the browser to --allowed-origins: navigation and tabs refused", async () => {
    const client = await server.connect();
    try {
      const refused = await call(client, "navigate", { url: `${hostile.url}/help.html` });
      expect(textOf(refused)).toMatch(new RegExp(`^Error permission_denied \\(url\\): ${hostile.url.replace(/[.:/]/g, "\\$&")} is not an allowed site \\(--allowed-origins`));
      expect((await call(client, "open_tab", { url: `${hostile.url}/help.html` })).isError).toBe(true);
      await call(client, "navigate", { url: `${site.url}/index.html` });
      const snap = textOf(await call(client, "take_snapshot"));
      expect(snap).toContain('# Notes');
      // Uploads come from --upload-dir, relative paths too.
      const upload = await call(client, "upload_file", { ref: refOf(snap, /Attachment/), paths: ["note.txt"] });
      expect(JSON.parse(textOf(upload)).files).toEqual(["note.txt"]);
    } finally {
      await client.close();
    }
  });

  it("opens no local file, by open_tab or by a link; blocks a refused site's frame and closes its tab", async () => {
    const client = await server.connect();
    try {
      expect(textOf(await call(client, "open_tab", { url: "file:///etc/" }))).toMatch(/^Error permission_denied/);
      await call(client, "navigate", { url: `${site.url}/attack.html` });
      const snap = textOf(await call(client, "take_snapshot"));
      expect(snap).not.toContain("Join the partner programme");
      const tab = JSON.parse(textOf(await call(client, "click", { ref: refOf(snap, /link "hostile tab"/) })));
      expect(tab.evidence.new_tab_id ?? "").toBe("");
      expect(tab.evidence.notes.join("\n")).toContain(`the page opened a tab that was closed at once: ${hostile.url}/help.html`);
      await call(client, "click", { ref: refOf(snap, /link "local folder"/) });
      await call(client, "click", { ref: refOf(snap, /link "local file"/) });
      const tabs = JSON.parse(textOf(await call(client, "list_tabs"))).tabs;
      for (const t of tabs) {
        await call(client, "switch_tab", { tab_id: t.tab_id });
        expect(textOf(await call(client, "take_snapshot"))).not.toMatch(fileContent);
      }
      expect(tabs.map((t: { url: string }) => t.url)).toEqual([`${site.url}/attack.html`]);
    } finally {
      await client.close();
    }
  });

  it("answers only requests addressed to localhost", async () => {
    // A page on another site that resolves to this machine (DNS rebinding) sends its own Host.
    const status = await new Promise<number | undefined>((done, fail) => {
      const req = request(server.url, { method: "POST", headers: { host: "evil.example", "content-type": "application/json" } }, (res) => {
        res.resume();
        done(res.statusCode);
      });
      req.once("error", fail).end("{}");
    });
    expect(status).toBe(403);
    const wrongPath = await fetch(server.url.replace(/\/mcp$/, "/other"), { method: "POST" });
    expect(wrongPath.status).toBe(404);
  });
});

describe("baton mcp --snapshot-diffs", () => {
  let client: Client;
  beforeAll(async () => {
    client = await stdioClient(["--snapshot-diffs"]);
  });
  afterAll(() => client?.close());

  it("answers a second take_snapshot of the same page with what changed, and full=true with the whole page", async () => {
    await call(client, "navigate", { url: `${site.url}/index.html` });
    const whole = textOf(await call(client, "take_snapshot"));
    expect(whole).toContain('# Notes');
    await call(client, "type_text", { ref: refOf(whole, /textbox "Name"/), text: "Ada" });
    await call(client, "click", { ref: refOf(whole, /"Save"/) });
    const diff = textOf(await call(client, "take_snapshot"));
    expect(diff).toMatch(/Diff against snapshot \d+, not the whole page/);
    expect(diff).toContain("Saved: Ada");
    expect(diff).not.toMatch(/button "Join the partner programme"/);
    // Unchanged lines are not repeated.
    expect(diff).not.toContain('button "Delete account"');
    const full = textOf(await call(client, "take_snapshot", { full: true }));
    expect(full).not.toContain("Diff against");
    expect(full).toMatch(/button "Join the partner programme"/);
  });
});

describe("baton mcp --blocked-origins localhost", () => {
  let client: Client;
  beforeAll(async () => {
    client = await stdioClient(["--blocked-origins", "localhost"]);
  });
  afterAll(() => client?.close());

  it.each(["localhost", "localhost.", "127.0.0.1", "[::ffff:127.0.0.1]", "0.0.0.0", "[::1]"])("refuses this machine spelt %s", async (host) => {
    const url = `http://${host}:${new URL(site.url).port}/index.html`;
    const refused = await call(client, "navigate", { url });
    expect(textOf(refused)).toMatch(/^Error permission_denied \(url\): http:\/\/\S+ is blocked \(--blocked-origins\)/);
    expect(textOf(await call(client, "take_snapshot"))).not.toContain("Notes");
  });
});

describe("baton mcp --policy (a read-only site)", () => {
  let client: Client;
  const dir = mkdtempSync(join(tmpdir(), "baton-mcp-policy-"));
  const policy = join(dir, "policy.yaml");
  beforeAll(async () => {
    writeFileSync(policy, `read_only:\n  - ${site.url}\n`);
    client = await stdioClient(["--policy", policy]);
  });
  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads and reads the page, but typing there is refused with the site and the file named", async () => {
    expect(textOf(await call(client, "navigate", { url: `${site.url}/index.html` }))).not.toMatch(/^Error/);
    const snapshot = textOf(await call(client, "take_snapshot"));
    expect(snapshot).toContain("Notes");
    const typed = await call(client, "type_text", { ref: refOf(snapshot, /textbox "Name"/), text: "Ada" });
    expect(typed.isError).toBe(true);
    expect(textOf(typed)).toContain(`${site.url} is a read-only site (--policy ${policy}: read-only ${site.url})`);
    const saved = await call(client, "click", { ref: refOf(snapshot, /"Save"/) });
    expect(saved.isError).toBe(true);
    expect(textOf(await call(client, "take_snapshot"))).not.toContain("Saved: Ada");
  });
});
