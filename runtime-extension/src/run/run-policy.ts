import type { BatonClient } from "@baton/sdk/client";
import { mergeUrlPolicies, sitePolicyFromLists, type UrlPolicy } from "@baton/sdk/policy";
import { modeOf, type Settings } from "../settings.js";
import { loadSitePolicy } from "../site-policy-store.js";

/** How refusals name the backend's rules (the user's and the team's, combined there). */
const backendSource = "your backend's site policy";

/**
 * The site policy a run's tabs and engine are held to: the extension's own lists and, in
 * connected mode, what the backend holds for the user and their team (`GetSitePolicy`'s
 * effective lists), merged so that neither loosens the other. Throws when the backend cannot
 * say: a run does not start under less than the user's policy.
 */
export async function runPolicy(client: BatonClient, settings: Settings, signal?: AbortSignal): Promise<UrlPolicy> {
  const own = await loadSitePolicy();
  if (modeOf(settings) !== "connected") return own;
  const held = await client.getSitePolicy({}, signal ? { signal } : {});
  return mergeUrlPolicies(own, sitePolicyFromLists(held.effective ?? {}, backendSource));
}
