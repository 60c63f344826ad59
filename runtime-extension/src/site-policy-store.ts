/**
 * The user's site policy in the extension: allowed, blocked and read-only sites, kept in
 * `chrome.storage.local` (closed to the content script: `storage-access.ts`). The agent's tabs
 * and the engine are held to it in both modes; in connected mode it is merged with the policy the
 * backend holds for the user and their team (`mergeUrlPolicies`), so neither loosens the other.
 */
import { parseSiteList, type SiteLists, sitePolicyFromLists, type UrlPolicy } from "@baton/sdk/policy";

const key = "sitePolicy";

/** How refusals name where a rule of these lists came from. */
export const extensionPolicySource = "the extension's site policy";

const empty: SiteLists = { allowed: [], blocked: [], readOnly: [] };

/** The lists as saved (empty when none). */
export async function loadSiteLists(): Promise<SiteLists> {
  return { ...empty, ...((await chrome.storage.local.get(key))[key] as Partial<SiteLists> | undefined) };
}

/** The saved lists as a policy (no limit when they are empty). */
export async function loadSitePolicy(): Promise<UrlPolicy> {
  return sitePolicyFromLists(await loadSiteLists(), extensionPolicySource);
}

/** Names of the lists, as the settings show them. */
export const siteListLabels: Record<keyof SiteLists, string> = { allowed: "Allowed sites", blocked: "Blocked sites", readOnly: "Read-only sites" };

/**
 * What is wrong with each entry of the lists, one sentence per bad entry naming its list (the
 * policy module's parser decides); empty when every entry is an origin or a host.
 */
export function siteListErrors(lists: SiteLists): string[] {
  const errors: string[] = [];
  for (const list of Object.keys(siteListLabels) as (keyof SiteLists)[]) {
    for (const entry of lists[list]) {
      try {
        parseSiteList([entry], siteListLabels[list]);
      } catch (e) {
        errors.push(e instanceof Error ? e.message : String(e));
      }
    }
  }
  return errors;
}

/** The lists from text, one entry per line (commas and semicolons also separate), blanks dropped. */
export function siteListsFromText(text: Record<keyof SiteLists, string>): SiteLists {
  const split = (t: string) =>
    t
      .split(/[\n;,]/)
      .map((e) => e.trim())
      .filter(Boolean);
  return { allowed: split(text.allowed), blocked: split(text.blocked), readOnly: split(text.readOnly) };
}

/** Saves the lists; throws an Error listing every bad entry, and then saves nothing. */
export async function saveSiteLists(lists: SiteLists): Promise<SiteLists> {
  const errors = siteListErrors(lists);
  if (errors.length > 0) throw new Error(errors.join("\n"));
  await chrome.storage.local.set({ [key]: lists });
  return lists;
}

/** Calls `listener` whenever the saved lists change (Settings saved); returns what stops it. */
export function onSiteListsChange(listener: () => void): () => void {
  const onChanged = (changes: Record<string, chrome.storage.StorageChange>, area: string) => {
    if (area === "local" && key in changes) listener();
  };
  chrome.storage.onChanged.addListener(onChanged);
  return () => chrome.storage.onChanged.removeListener(onChanged);
}
