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

/**
 * Holds a browser Baton launched to the URL policy, for every tab, frame, redirect and
 * subresource, whoever opened them:
 * - the Fetch domain on the browser-level session pauses each request (all of them when the
 *   policy has site lists; otherwise only local-file schemes) and fails the refused ones as
 *   `BlockedByClient`;
 * - a target watch closes any tab that shows a URL no tab may show (`chrome:`, `devtools:`,
 *   `file:`…), which no page can open by itself but any CDP command could.
 * WebSockets are not requests the Fetch domain sees: `hostResolverRules` covers them at
 * launch. Only for a browser Baton owns: on a user's browser it would hold up their other
 * tabs. Resolves to a function that stops listening.
 */
export async function guardBrowser(transport: CdpTransport, policy: UrlPolicy): Promise<() => void> {
  const checkTarget = (info: TargetInfo): void => {
    if (info.type !== "page" || !info.url) return;
    const d = decideUrl(policy, info.url, "tab");
    if (!d.allow && d.rule === "scheme") void transport.send("Target.closeTarget", { targetId: info.targetId }).catch(() => undefined);
  };
  const off = transport.onEvent((e: CdpEvent) => {
    if (e.sessionId) return;
    if (e.method === "Fetch.requestPaused") {
      const { requestId, resourceType, request } = e.params as unknown as RequestPaused;
      const refused = !decideUrl(policy, request.url, resourceType === "Document" ? "frame" : "resource").allow;
      void transport
        .send(refused ? "Fetch.failRequest" : "Fetch.continueRequest", refused ? { requestId, errorReason: "BlockedByClient" } : { requestId })
        .catch(() => undefined);
    } else if (e.method === "Target.targetCreated" || e.method === "Target.targetInfoChanged") {
      checkTarget(e.params.targetInfo as TargetInfo);
    }
  });
  try {
    await transport.send("Fetch.enable", { patterns: hasSiteLists(policy) ? [{ urlPattern: "*" }] : localSchemePatterns });
    await transport.send("Target.setDiscoverTargets", { discover: true });
    const { targetInfos } = await transport.send<{ targetInfos: TargetInfo[] }>("Target.getTargets");
    for (const t of targetInfos) checkTarget(t);
  } catch (e) {
    off();
    throw e;
  }
  return off;
}
