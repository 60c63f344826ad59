import { join } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, describe, expect, it } from "vitest";
import { consoleClient } from "@baton/backend/testing/console-client";
import { tempDirs } from "@baton/backend/testing/temp-dirs";
import { type BackendProcess, restartTimeoutMs, startBackendProcess } from "../testing/backend-process.js";

// The sign-in link `baton serve` prints sits in logs and scrollback for 24 hours: a restart
// mints a new one and retires the last start's, if it was not used.

const dirs = tempDirs("baton-start-link-");
const procs: BackendProcess[] = [];
afterAll(async () => {
  for (const p of procs) await p.kill("SIGKILL");
  dirs.removeAll();
});

/** Two starts in one test, each as long as a loaded machine may take to compile and open the store. */
const startMs = restartTimeoutMs - 30_000;

function startLink(p: BackendProcess): string {
  const link = /Console: (http:\/\/\S+\/sign-in#si_[\w-]+)/.exec(p.output())?.[1];
  if (!link) throw new Error(`no sign-in link in:\n${p.output()}`);
  return link;
}

describe("baton serve's start link", () => {
  it(
    "is retired by the next start: the old link is refused, the new one signs in",
    async () => {
      const data = join(dirs.fresh(), "data");
      const first = await startBackendProcess(["--data-dir", data], {}, startMs);
      procs.push(first);
      const old = startLink(first);
      await first.kill("SIGTERM");
      const second = await startBackendProcess(["--data-dir", data], {}, startMs);
      procs.push(second);
      const fresh = startLink(second);
      expect(fresh).not.toBe(old);
      const refused = await consoleClient(second.url)
        .signIn(old)
        .catch((e: unknown) => ConnectError.from(e));
      expect(refused).toMatchObject({ code: Code.Unauthenticated });
      const c = consoleClient(second.url);
      await c.signIn(fresh);
      expect((await c.console.getAccount({})).account).toMatchObject({ userId: "local", admin: true });
    },
    2 * restartTimeoutMs,
  );
});
