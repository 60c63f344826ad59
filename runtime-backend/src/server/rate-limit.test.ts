import { createHash, randomBytes } from "node:crypto";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ConsoleService } from "@baton/gen/baton/v1/console_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelResolver } from "../providers/registry.js";
import { consoleClient } from "../testing/console-client.js";
import { createSignInCode } from "../store/accounts.js";
import { ensureUser } from "../store/users.js";
import { type Backend, startBackend } from "./app.js";
import { ClientRateLimiter, clientKey } from "./rate-limit.js";

describe("the per-client limit of anonymous calls", () => {
  it("refuses the 301st call of a burst and refills with time, one bucket per client", () => {
    let now = 0;
    const limiter = new ClientRateLimiter({ burst: 300, perMinute: 60 }, () => now);
    for (let i = 0; i < 300; i++) expect(limiter.take("203.0.113.7")).toBe(0);
    expect(limiter.take("203.0.113.7")).toBe(1000);
    expect(limiter.take("203.0.113.8")).toBe(0);
    const refusal = limiter.refusal("203.0.113.7");
    expect(refusal?.code).toBe(Code.ResourceExhausted);
    expect(refusal?.metadata.get("retry-after")).toBe("1");
    now += 1000;
    expect(limiter.take("203.0.113.7")).toBe(0);
    expect(limiter.take("::ffff:203.0.113.7")).toBeGreaterThan(0);
  });

  it("keys IPv4-mapped addresses as IPv4 and IPv6 by its /64", () => {
    expect(clientKey("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(clientKey("::1")).toBe("0:0:0:0::/64");
  });
});

describe("a burst of StartDeviceLink against a real server", () => {
  let backend: Backend;
  beforeAll(async () => {
    // A bucket that does not refill within the test, so that the count is exact on a slow machine.
    backend = await startBackend({ port: 0, resolveModel: createModelResolver({}), publicRateLimit: { burst: 300, perMinute: 1 } });
    await ensureUser(backend.db, "ada");
  });
  afterAll(async () => {
    await backend?.close();
  });

  const request = () => ({
    codeChallenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
    codeChallengeMethod: "S256",
    deviceName: "flood",
  });

  it("accepts 300 from one address, refuses the 301st with a retry hint, and serves another client and signed-in calls", async () => {
    const flood = createClient(ConsoleService, createConnectTransport({ baseUrl: backend.server.url, httpVersion: "1.1" }));
    // Signed in before the flood (signing in is anonymous too), used after it.
    const ada = consoleClient(backend.server.url);
    await ada.signIn((await createSignInCode(backend.db, "ada", 60_000)).code);
    let sent = 0;
    const worker = async () => {
      while (sent < 299) {
        sent++;
        await flood.startDeviceLink(request());
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    let retryAfter = "";
    const refused = await flood.startDeviceLink(request(), { onHeader: (h) => void (retryAfter = h.get("retry-after") ?? "") }).catch((e: unknown) => ConnectError.from(e));
    expect(refused).toMatchObject({ code: Code.ResourceExhausted });
    expect((refused as ConnectError).rawMessage).toMatch(/too many calls without signing in from this address .*retry in \d+ s/);
    expect(Number((refused as ConnectError).metadata.get("retry-after") ?? retryAfter)).toBeGreaterThan(0);
    // Polling is anonymous too: the same address is refused there as well.
    expect(await flood.pollDeviceLink({ linkId: "dl_x" }).catch((e: unknown) => ConnectError.from(e).code)).toBe(Code.ResourceExhausted);
    // A normal client, from another address, is fine.
    const neighbour = createClient(ConsoleService, createConnectTransport({ baseUrl: backend.server.url, httpVersion: "1.1", nodeOptions: { localAddress: "127.0.0.2" } }));
    expect((await neighbour.startDeviceLink(request())).linkId).toMatch(/^dl_/);
    // Signed-in calls from the flooding address are not counted.
    expect((await ada.console.getAccount({})).account?.userId).toBe("ada");
  });
});
