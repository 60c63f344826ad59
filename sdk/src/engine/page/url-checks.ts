import type { TargetInfo } from "../../cdp/protocol.js";
import { delay } from "../../cdp/timeouts.js";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import { decideUrl, openUrlPolicy, type UrlPolicy } from "../../policy/url-policy.js";
import { sanitizeText, sanitizeUrl } from "../base/sanitize.js";
import type { PageSession } from "./page-session.js";

/**
 * The URL a page may be opened at (navigate, open_tab), parsed and normalised; anything else
 * fails before a tab is touched: an unparsable URL with INVALID_ARGUMENTS, a refused one (a
 * scheme other than http(s) and about:blank, a site the policy does not allow) with
 * PERMISSION_DENIED and the policy's reason.
 */
export function openableUrl(raw: string, policy: UrlPolicy = openUrlPolicy, field = "url"): string {
  const d = decideUrl(policy, raw, "page");
  if (d.allow) return new URL(raw.trim()).href;
  if (d.rule === "invalid") throw new ToolFailure(ToolErrorCode.INVALID_ARGUMENTS, `${JSON.stringify(sanitizeText(raw, 200))} is not an absolute URL. Give one like "https://example.com/".`, { field });
  throw new ToolFailure(ToolErrorCode.PERMISSION_DENIED, d.reason, { field });
}

/** The URL a target shows now (its pending one while it loads), "" when it is gone. */
async function targetUrl(page: PageSession, targetId: string): Promise<string | undefined> {
  return page.transport
    .send<{ targetInfo: TargetInfo }>("Target.getTargetInfo", { targetId })
    .then((r) => r.targetInfo.url)
    .catch(() => undefined);
}

/**
 * Why a tab may not stay open, or undefined when it may: the tab's URL as a `tab`. A tab that
 * has no URL yet (a popup reports its URL once its first page commits, even an error page) is
 * waited for up to `waitMs`; one that is gone, or still has none, is not refused.
 */
export async function tabRefusal(page: PageSession, policy: UrlPolicy, targetId: string, waitMs = 0): Promise<string | undefined> {
  const until = Date.now() + waitMs;
  let url = await targetUrl(page, targetId);
  while (url === "" && Date.now() < until) {
    await delay(50);
    url = await targetUrl(page, targetId);
  }
  if (!url) return undefined;
  const d = decideUrl(policy, url, "tab");
  return d.allow ? undefined : `${sanitizeUrl(url)}: ${d.reason}`;
}

/** How long an action's evidence waits for a tab it opened to report its URL. */
const newTabUrlWaitMs = 1500;

/**
 * Closes the tabs `page` opened since the `from`-th (a link with target=_blank, window.open)
 * whose URL the policy refuses. Resolves to the closed tabs and a note for each, for the
 * action's evidence. (A tab still without a URL then is checked again when the agent adopts it.)
 */
export async function closeRefusedTabs(page: PageSession, policy: UrlPolicy, from: number): Promise<{ closed: Set<string>; notes: string[] }> {
  const closed = new Set<string>();
  const notes: string[] = [];
  for (const targetId of page.openedTargets.slice(from)) {
    const why = await tabRefusal(page, policy, targetId, newTabUrlWaitMs);
    if (!why) continue;
    await page.transport.send("Target.closeTarget", { targetId }).catch(() => undefined);
    closed.add(targetId);
    notes.push(`the page opened a tab that was closed at once: ${why}`);
  }
  return { closed, notes };
}

/**
 * When the page itself ended up somewhere the policy refuses (a link, a redirect, a script;
 * in a browser Baton launched the request is blocked before this), leaves it for about:blank
 * so nothing of it is read. Resolves to a note saying so, or undefined when the page may stay.
 */
export async function leaveRefusedPage(page: PageSession, policy: UrlPolicy): Promise<string | undefined> {
  const url = page.mainFrame()?.url;
  if (!url) return undefined;
  const d = decideUrl(policy, url, "tab");
  if (d.allow) return undefined;
  await page.send("Page.navigate", { url: "about:blank" }).catch(() => undefined);
  return `the page went to ${sanitizeUrl(url)}, which is refused, and was left for about:blank: ${d.reason}`;
}
