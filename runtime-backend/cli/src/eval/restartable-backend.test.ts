import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { RunBackend } from "../run/run-backend.js";
import { restartableBackend } from "./restartable-backend.js";

/** A real HTTP server that says which start it is and which Host it was asked for. */
function starts() {
  const told: string[] = [];
  let n = 0;
  const start = async (relay: string): Promise<RunBackend> => {
    told.push(relay);
    const life = ++n;
    const server = createServer((req, res) => res.end(`life ${life} for ${req.headers.host}`));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    // Slow to come back, as a store reopening is: requests made meanwhile must wait, not fail.
    await new Promise((r) => setTimeout(r, life > 1 ? 300 : 0));
    return {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      token: `token ${life}`,
      where: "memory",
      close: () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    };
  };
  return { start, told };
}

describe("restartableBackend", () => {
  it("keeps one address and the first token across restarts, and holds requests made during one for the new backend", async () => {
    const { start, told } = starts();
    const b = await restartableBackend(start);
    try {
      const host = new URL(b.baseUrl).host;
      expect(b.token).toBe("token 1");
      expect(await (await fetch(b.baseUrl)).text()).toBe(`life 1 for ${host}`);
      const restarting = b.restart();
      const during = fetch(b.baseUrl).then((r) => r.text());
      await restarting;
      expect(await during).toBe(`life 2 for ${host}`);
      expect(await (await fetch(b.baseUrl)).text()).toBe(`life 2 for ${host}`);
      expect(b.token).toBe("token 1");
      // Each backend was told the relay's name, which it must answer.
      expect(told).toEqual([host, host]);
    } finally {
      await b.close();
    }
  });

  it("rejects a restart whose backend cannot start, and says so to the requests that waited", async () => {
    let first = true;
    const { start } = starts();
    const b = await restartableBackend(async (relay) => {
      if (first) {
        first = false;
        return start(relay);
      }
      throw new Error("the store is locked");
    });
    try {
      const restarting = b.restart();
      const during = fetch(b.baseUrl).then(
        () => "answered",
        () => "refused",
      );
      await expect(restarting).rejects.toThrow("the store is locked");
      expect(await during).toBe("refused");
    } finally {
      await b.close().catch(() => undefined);
    }
  });
});
