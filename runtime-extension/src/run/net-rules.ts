/**
 * The site policy in the network of the agent's tabs. The debugger cannot intercept a tab's
 * requests the way Baton's launched browser does (Fetch over the whole browser), so the
 * extension hands Chrome session rules (`chrome.declarativeNetRequest`) limited to the agent's
 * tab ids: every request of those tabs — the page, its frames, subresources and WebSockets — to
 * a site the policy refuses is blocked in the network stack. The policy module writes the rules
 * (`declarativeNetRequestRules`); this file only applies them. Session rules are the narrowest
 * kind that take tab ids, and Chrome drops them when the browser closes.
 */
import { declarativeNetRequestRules, openUrlPolicy, type UrlPolicy } from "@baton/sdk/policy";

/**
 * Replaces every session rule of the extension with the rules that hold `tabIds` to `policy`
 * (none when the policy has no lists that limit loading, or there are no tabs). The extension
 * keeps no other session rules, so what it finds is what an earlier call set, even one of a
 * panel that was closed mid-run. One update: requests never see a moment without rules.
 */
export async function holdTabRequests(policy: UrlPolicy, tabIds: readonly number[]): Promise<void> {
  const old = await chrome.declarativeNetRequest.getSessionRules();
  const addRules = declarativeNetRequestRules(policy, tabIds, 1);
  // The policy is read again before each step: most updates would change nothing.
  if (old.map(shape).sort().join("\n") === addRules.map(shape).sort().join("\n")) return;
  await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: old.map((r) => r.id), addRules });
}

/** What makes two rules the same, as Chrome gives them back (it may add defaults of its own). */
function shape(r: chrome.declarativeNetRequest.Rule): string {
  const c = r.condition;
  return JSON.stringify([r.id, r.priority, r.action.type, c.regexFilter, c.tabIds, c.resourceTypes]);
}

/** Removes the rules: the tabs are the user's again. */
export function releaseTabRequests(): Promise<void> {
  return holdTabRequests(openUrlPolicy, []);
}
