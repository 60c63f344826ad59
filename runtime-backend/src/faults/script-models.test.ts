import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HostileRig, startHostileRig } from "../testing/hostile-backend.js";
import { tempDirs } from "../testing/temp-dirs.js";

// Issue 18, hole 1: a session's model name is client input, and `script:PATH` used to read any
// file the server could (echoing its start in the JSON error), block on a FIFO, or read
// /dev/zero until the process died.

const dirs = tempDirs("baton-script-models-");
let rig: HostileRig;
let off: HostileRig;
let scripts = "";
let outside = "";
const secret = "TOP-SECRET-CONTENT-4711";

async function refusal(r: HostileRig, model: string): Promise<ConnectError> {
  const err = await r
    .client(r.alice)
    .createSession({ task: "t", model })
    .then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
  expect(err, `${model} must be refused`).toBeInstanceOf(ConnectError);
  return err as ConnectError;
}

beforeAll(async () => {
  const root = dirs.fresh();
  scripts = join(root, "scripts");
  outside = join(root, "private");
  mkdirSync(scripts);
  mkdirSync(outside);
  writeFileSync(join(scripts, "ok.json"), JSON.stringify({ turns: [{ calls: [{ name: "done", args: { answer: "scripted" } }] }] }));
  writeFileSync(join(scripts, "broken.json"), `root:x:0:0:${secret}:/root:/bin/bash\n`);
  writeFileSync(join(outside, "secret.json"), JSON.stringify({ turns: [{ text: secret }] }));
  writeFileSync(join(outside, "passwd"), `root:x:0:0:${secret}\n`);
  symlinkSync(join(outside, "passwd"), join(scripts, "link-out.json"));
  symlinkSync("/dev/zero", join(scripts, "zero.json"));
  execFileSync("mkfifo", [join(scripts, "fifo.json")]);
  writeFileSync(join(scripts, "huge.json"), "");
  truncateSync(join(scripts, "huge.json"), 100 * 1024 * 1024);
  rig = await startHostileRig({ env: { BATON_SCRIPT_DIR: scripts } });
  off = await startHostileRig({});
});

afterAll(async () => {
  await rig?.close();
  await off?.close();
  dirs.removeAll();
});

describe("script models", () => {
  it("are off unless the operator names a directory", async () => {
    const err = await refusal(off, `script:${join(scripts, "ok.json")}`);
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.rawMessage).toMatch(/script models are off/);
  });

  it("run a script inside the directory, by name or absolute path", async () => {
    for (const model of ["script:ok.json", `script:${join(scripts, "ok.json")}`]) {
      const c = rig.client(rig.alice);
      const { session } = await c.createSession({ task: "t", model });
      const r = await c.step({ sessionId: session!.id });
      expect(r.session?.answer).toBe("scripted");
    }
  });

  it("run a script by an absolute path through the directory as the operator spelled it (a symlink to it)", async () => {
    const linked = join(dirs.fresh(), "linked-scripts");
    symlinkSync(scripts, linked);
    const viaLink = await startHostileRig({ env: { BATON_SCRIPT_DIR: linked } });
    try {
      for (const model of ["script:ok.json", `script:${join(linked, "ok.json")}`, `script:${join(scripts, "ok.json")}`]) {
        const c = viaLink.client(viaLink.alice);
        const { session } = await c.createSession({ task: "t", model });
        const r = await c.step({ sessionId: session!.id });
        expect(r.session?.answer, model).toBe("scripted");
      }
      expect((await refusal(viaLink, `script:${join(linked, "..", "private", "passwd")}`)).rawMessage).toMatch(/only files inside/);
    } finally {
      await viaLink.close();
    }
  });

  it.each([
    ["an absolute path outside", () => "/etc/passwd", /only files inside/],
    ["the process environment", () => "/proc/self/environ", /only files inside/],
    ["a .. path", () => "../private/secret.json", /only files inside/],
    ["a .. path through the directory", () => `${scripts}/../private/passwd`, /only files inside/],
    ["a symlink out of the directory", () => "link-out.json", /only files inside/],
    ["/dev/zero", () => "/dev/zero", /only files inside/],
    ["a symlink to /dev/zero", () => "zero.json", /only files inside/],
    ["a missing file", () => "nope.json", /no such file/],
    ["a NUL in the name", () => "ok.json\u0000x", /./],
  ])("refuse %s, quoting nothing of any file", async (_why, name, message) => {
    const err = await refusal(rig, `script:${name()}`);
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.rawMessage).toMatch(message);
    expect(err.rawMessage).not.toContain(secret);
    expect(err.rawMessage).not.toContain("root:");
    // The directory's location is not told (the client's own input is echoed, nothing else).
    expect(err.rawMessage.replaceAll(name(), "")).not.toContain(scripts);
  });

  it("refuse a FIFO at once, without blocking the server", async () => {
    const t0 = Date.now();
    const [err, health] = await Promise.all([refusal(rig, "script:fifo.json"), fetch(`${rig.url}/healthz`).then((r) => r.status)]);
    expect(health).toBe(200);
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.rawMessage).toMatch(/not a regular file/);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it("refuse a 100 MB file without reading it", async () => {
    const before = process.memoryUsage().rss;
    const err = await refusal(rig, "script:huge.json");
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.rawMessage).toMatch(/larger than/);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
  });

  it("say where a script is broken without echoing its text", async () => {
    const err = await refusal(rig, "script:broken.json");
    expect(err.rawMessage).toMatch(/not valid JSON/);
    expect(err.rawMessage).not.toContain(secret);
    expect(err.rawMessage).not.toContain("root:x");
  });

  it("log no error for any of it", () => {
    expect(rig.errors()).toEqual([]);
    expect(JSON.stringify(rig.logs())).not.toContain(secret);
  });
});
