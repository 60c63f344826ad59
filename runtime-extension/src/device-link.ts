/**
 * Signing in with the web console (its device link, PKCE): the panel starts a link, opens the
 * console's approval page in a tab, polls until the user approves, and trades the code and the
 * verifier for a token it saves where a pasted token goes. The pending link (with the verifier)
 * lives in `chrome.storage.session`, so closing the panel mid-way loses nothing and nothing
 * secret outlives the browser session.
 */
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { DeviceLinkStatus } from "@baton/gen/baton/v1/console_pb";
import { ConsoleService } from "@baton/gen/baton/v1/descriptors";
import { createPkce } from "@baton/sdk/client";
import { saveAuth, saveSettings } from "./settings.js";

/** A link waiting for the user's approval. */
export interface PendingLink {
  readonly backendUrl: string;
  readonly linkId: string;
  /** What the console's approval page shows; the user checks it matches. */
  readonly userCode: string;
  readonly approveUrl: string;
  readonly verifier: string;
  readonly pollIntervalMs: number;
  /** ms since the epoch. */
  readonly expiresAt: number;
}

const key = "deviceLink";
/** The client name the console shows beside the device. */
export const linkClient = "baton-extension";

function consoleClient(backendUrl: string) {
  return createClient(ConsoleService, createConnectTransport({ baseUrl: backendUrl }));
}

/** The pending link, if any. */
export async function loadPendingLink(): Promise<PendingLink | undefined> {
  return (await chrome.storage.session.get(key))[key] as PendingLink | undefined;
}

/** Forgets the pending link (cancelled, finished or failed). */
export async function clearPendingLink(): Promise<void> {
  await chrome.storage.session.remove(key);
}

/** What the console calls this browser: "Chrome on Linux". */
export function deviceName(): string {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform || navigator.platform || "this computer";
  return `Chrome on ${platform}`;
}

/** Starts a link at `backendUrl` and opens its approval page in a new tab. */
export async function startLink(backendUrl: string): Promise<PendingLink> {
  const base = backendUrl.trim().replace(/\/+$/, "");
  const { verifier, challenge } = await createPkce();
  const r = await consoleClient(base).startDeviceLink({ codeChallenge: challenge, codeChallengeMethod: "S256", deviceName: deviceName(), client: linkClient });
  const link: PendingLink = {
    backendUrl: base,
    linkId: r.linkId,
    userCode: r.userCode,
    approveUrl: r.approveUrl,
    verifier,
    pollIntervalMs: r.pollIntervalMs || 1000,
    expiresAt: r.expiresAt ? Number(r.expiresAt.seconds) * 1000 : Date.now() + 600_000,
  };
  await chrome.storage.session.set({ [key]: link });
  await chrome.tabs.create({ url: r.approveUrl });
  return link;
}

/** How a poll ended. */
export type LinkOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * Polls the link at its interval until it is decided (or `signal` aborts); on approval
 * exchanges code and verifier for a token and saves it in the settings.
 */
export async function finishLink(link: PendingLink, signal: AbortSignal): Promise<LinkOutcome | undefined> {
  const api = consoleClient(link.backendUrl);
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, link.pollIntervalMs));
      if (signal.aborted) return undefined;
      const poll = await api.pollDeviceLink({ linkId: link.linkId });
      if (signal.aborted) return undefined;
      if (poll.status === DeviceLinkStatus.PENDING) continue;
      if (poll.status !== DeviceLinkStatus.APPROVED) {
        await clearPendingLink();
        return { ok: false, message: `The link was ${DeviceLinkStatus[poll.status].toLowerCase()} in the console. Start again.` };
      }
      const got = await api.exchangeDeviceCode({ code: poll.code, codeVerifier: link.verifier });
      await clearPendingLink();
      await saveSettings({ backendUrl: link.backendUrl, token: got.token });
      await saveAuth({ state: "ok", at: Date.now() });
      return { ok: true };
    }
  } catch (e) {
    const err = ConnectError.from(e);
    // A refusal is final (the link is gone, expired or its code was used); a network blip is not worth keeping a stale link for either.
    await clearPendingLink();
    if (err.code === Code.Unavailable || err.code === Code.Unknown) return { ok: false, message: `Could not reach ${link.backendUrl}: ${err.rawMessage}` };
    return { ok: false, message: `The console refused the link: ${err.rawMessage}` };
  }
}
