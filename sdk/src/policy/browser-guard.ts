import type { CdpEvent, CdpTransport } from "../cdp/transport.js";
import { decideUrl, hasSiteLists, type UrlPolicy } from "./url-policy.js";

interface RequestPaused {
  readonly requestId: string;
  readonly resourceType?: string;
  readonly request: { readonly url: string };
}

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
  readonly url: string;
}

/**
 * Schemes the Fetch domain is asked to pause when the policy has no site lists: those that
 * read this machine. (Chromium serves its own pages, `chrome:` and `devtools:`, outside the
 * network stack, where Fetch never sees them: the target watch below closes those.)
 */
const localSchemePatterns = ["file:*", "filesystem:*"].map((urlPattern) => ({ urlPattern }));

/** Where {@link guardBrowser} holds: a whole browser, or one page target of a browser that is not ours. */
export interface GuardScope {
  /** The flat session of the one page target to hold; unset: the browser-level connection, every target. */
  readonly sessionId?: string;
}

/**
 * Holds a browser to the URL policy over CDP, for every tab, frame, redirect and subresource,
 * whoever opened them:
 * - the Fetch domain on the browser-level session pauses each request (all of them when the
 *   policy has site lists; otherwise only local-file schemes) and fails the refused ones as
 *   `BlockedByClient`;
 * - a target watch closes any tab that shows a URL no tab may show (`chrome:`, `devtools:`,
 *   `file:`…), which no page can open by itself but any CDP command could.
 * WebSockets are not requests the Fetch domain sees: `hostResolverRules` covers them at
 * launch. For a browser Baton launched, or one given to it whole (`baton eval --cdp-url`): on a
 * user's browser it would hold up their other tabs, so there `scope.sessionId` holds the
 * requests of the one page Baton opened and of the frames and workers attached under it (their
 * Fetch domains, no target watch). Resolves to a function that stops listening.
 */
export async function guardBrowser(transport: CdpTransport, policy: UrlPolicy, scope: GuardScope = {}): Promise<() => void> {
  const { sessionId } = scope;
  const patterns = hasSiteLists(policy) ? [{ urlPattern: "*" }] : localSchemePatterns;
  // Scoped to a page: its frames in other processes and its workers are targets of their own,
  // whose requests only their own Fetch domain sees. The engine attaches to them paused
  // (`waitForDebuggerOnStart`) and lets them run once prepared; Fetch is enabled here as they
  // are attached, in the same event dispatch, so it is in place before they run.
  const held = new Set<string | undefined>([sessionId]);
  const checkTarget = (info: TargetInfo): void => {
    if (info.type !== "page" || !info.url) return;
    const d = decideUrl(policy, info.url, "tab");
    if (!d.allow && d.rule === "scheme") void transport.send("Target.closeTarget", { targetId: info.targetId }).catch(() => undefined);
  };
  const off = transport.onEvent((e: CdpEvent) => {
    if (!held.has(e.sessionId)) return;
    if (sessionId && e.method === "Target.attachedToTarget") {
      const child = String(e.params.sessionId);
      held.add(child);
      void transport.send("Fetch.enable", { patterns }, child).catch(() => undefined);
    } else if (sessionId && e.method === "Target.detachedFromTarget") {
      held.delete(String(e.params.sessionId));
    } else if (e.method === "Fetch.requestPaused") {
      const { requestId, resourceType, request } = e.params as unknown as RequestPaused;
      const refused = !decideUrl(policy, request.url, resourceType === "Document" ? "frame" : "resource").allow;
      void transport
        .send(refused ? "Fetch.failRequest" : "Fetch.continueRequest", refused ? { requestId, errorReason: "BlockedByClient" } : { requestId }, e.sessionId)
        .catch(() => undefined);
    } else if (!sessionId && (e.method === "Target.targetCreated" || e.method === "Target.targetInfoChanged")) {
      checkTarget(e.params.targetInfo as TargetInfo);
    }
  });
  try {
    await transport.send("Fetch.enable", { patterns }, sessionId);
    if (!sessionId) {
      await transport.send("Target.setDiscoverTargets", { discover: true });
      const { targetInfos } = await transport.send<{ targetInfos: TargetInfo[] }>("Target.getTargets");
      for (const t of targetInfos) checkTarget(t);
    }
  } catch (e) {
    off();
    throw e;
  }
  return off;
}

/**
 * What Baton can and cannot hold in a browser it attached to rather than launched, said once
 * on stderr when it attaches (`baton run`, `baton mcp`, `baton eval --cdp-url`) and in
 * docs/trust.md. `where` names the browser as the person gave it ("the browser at ws://…");
 * `whole`: the browser was given to Baton (eval's remote browsers), so every target is held;
 * otherwise only the page Baton opened is.
 */
export function attachedGuardNotice(where: string, whole: boolean): string {
  const held = whole
    ? "every tab, frame, redirect and subresource request is held to the site policy over CDP (Fetch), and tabs showing file: or the browser's own pages are closed"
    : "requests of the page Baton opens, its frames and its workers are held to the site policy over CDP (Fetch on each), and so are where the agent navigates and the tabs it opens";
  const notHeld = whole ? "" : "requests of the browser's other tabs, ";
  return (
    `attached to ${where}: ${held}; pages Baton opens are kept out of the back/forward cache; ` +
    `not held: ${notHeld}WebSockets and other host lookups (--host-resolver-rules is a launch switch, which only a browser Baton launches gets)`
  );
}
