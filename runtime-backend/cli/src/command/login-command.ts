import { hostname } from "node:os";
import { ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { DeviceLinkStatus } from "@baton/gen/baton/v1/console_pb";
import { ConsoleService } from "@baton/gen/baton/v1/descriptors";
import { createPkce } from "@baton/sdk/client";
import { flag, type Parsed, unknownFlag } from "./args.js";
import { backendKey, saveLogin } from "./credentials.js";
import type { Io } from "./io.js";

/** What `baton login` may wait on (tests shorten it). */
export interface LoginDeps {
  readonly env: NodeJS.ProcessEnv;
  readonly sleep: (ms: number) => Promise<void>;
}

const processDeps: LoginDeps = { env: process.env, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/**
 * `baton login [--backend URL] [--name NAME]`: links this machine to an account with the
 * console's device link (PKCE, RFC 7636). Prints the approval page and a code, waits for the
 * user to approve it in the console, trades the code and the verifier for a token bound to
 * this device, and saves it for `baton run --backend URL` (credentials.ts).
 */
export async function loginCommand(p: Parsed, io: Io, deps: LoginDeps = processDeps): Promise<number> {
  const bad = unknownFlag(p, new Set(["backend", "name"]));
  if (bad) {
    io.stderr(`baton login: ${bad}\nusage: baton login [--backend URL] [--name NAME]\n`);
    return 2;
  }
  const backend = backendKey(flag(p, "backend", deps.env.BATON_BACKEND_URL ?? "http://127.0.0.1:8787") as string);
  const deviceName = flag(p, "name", `baton CLI on ${hostname()}`) as string;
  const api = createClient(ConsoleService, createConnectTransport({ baseUrl: backend, httpVersion: "1.1" }));
  const { verifier, challenge } = await createPkce();
  let start;
  try {
    start = await api.startDeviceLink({ codeChallenge: challenge, codeChallengeMethod: "S256", deviceName, client: "baton-cli" });
  } catch (e) {
    io.stderr(`baton login: cannot start a device link at ${backend}: ${e instanceof ConnectError ? e.rawMessage : String(e)}\nIs "baton serve" running there? (--backend URL)\n`);
    return 1;
  }
  io.stdout(`To link this machine, open\n\n  ${start.approveUrl}\n\nsign in if asked, check the page shows the code ${start.userCode}, and approve.\nWaiting…\n`);
  for (;;) {
    await deps.sleep(start.pollIntervalMs || 1000);
    const poll = await api.pollDeviceLink({ linkId: start.linkId });
    if (poll.status === DeviceLinkStatus.PENDING) continue;
    if (poll.status !== DeviceLinkStatus.APPROVED) {
      io.stderr(`baton login: the link was ${DeviceLinkStatus[poll.status].toLowerCase()}; nothing was saved.\n`);
      return 1;
    }
    const got = await api.exchangeDeviceCode({ code: poll.code, codeVerifier: verifier });
    const file = saveLogin(backend, { token: got.token, userId: got.account?.userId ?? "", tokenId: got.info?.id ?? "", savedAt: new Date().toISOString() }, deps.env);
    io.stdout(`Linked as ${got.account?.name ?? got.account?.userId} ("${got.info?.name}"). Token saved in ${file}; \`baton run --backend ${backend}\` uses it.\n`);
    return 0;
  }
}
