import { mergeUrlPolicies, type RememberedDecision, sitePolicyFromLists, type UrlPolicy } from "@baton/sdk/policy";
import type { Queryable } from "../store/db.js";
import { listApprovalRules, rememberApproval, revokeApprovalRule, sitePoliciesFor } from "../store/trust.js";

/**
 * Where the loop finds the trust a person configured: the approval decisions they asked to
 * have remembered, and the site policy their sessions are held to. The backend's store by
 * default (`storeTrust`); the extension's storage in standalone mode, a file for `baton run`.
 */
export interface TrustSource {
  /** The user's remembered decisions still in force, newest first. */
  decisions(userId: string): Promise<readonly RememberedDecision[]>;
  /** Remembers a decision, replacing the user's earlier one on the same site and class. */
  remember(userId: string, d: Omit<RememberedDecision, "id" | "createdAt">): Promise<RememberedDecision>;
  /** Forgets one; false when the user has none with that id. */
  revoke(userId: string, id: string): Promise<boolean>;
  /** The site policy the user's sessions are held to. */
  sitePolicy(userId: string): Promise<UrlPolicy>;
  /** Drops what is kept of a user's policy (every user's without one), after a change. */
  forget?(userId?: string): void;
}

/** Where remembered decisions are kept, when not in the backend's store (a file, extension storage). */
export type ApprovalMemory = Pick<TrustSource, "decisions" | "remember" | "revoke">;

/** Options of {@link storeTrust}. */
export interface StoreTrustOptions {
  /**
   * A policy every session of this backend is held to besides the store's (`baton run
   * --policy FILE` gives its own backend the file's), merged in (`mergeUrlPolicies`).
   */
  readonly extraPolicy?: () => UrlPolicy | Promise<UrlPolicy>;
  /** Keep remembered decisions here instead of the store (`baton run`'s file, the extension's storage). */
  readonly approvals?: ApprovalMemory;
  /** How long a user's policy is kept before it is read again (a change on another replica shows within it). */
  readonly policyCacheMs?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

/** How the team's and each user's policies are named in refusals. */
export const policyNames = { team: "team policy", user: "your policy" } as const;

/**
 * The team's and a user's stored policies as one: every blocked and read-only site of both,
 * and only the sites both allow lists allow.
 */
export function storedPolicy(lists: Awaited<ReturnType<typeof sitePoliciesFor>>): UrlPolicy {
  return mergeUrlPolicies(sitePolicyFromLists(lists.team, policyNames.team), sitePolicyFromLists(lists.user, policyNames.user));
}

/**
 * The store as a {@link TrustSource} (remembered decisions elsewhere with `approvals`, and an
 * extra policy merged in with `extraPolicy`). A user's site policy is read once per `policyCacheMs`
 * (default 2 s) at most: it is asked before each model turn's calls, and a turn should not
 * cost a read for it; `forget` drops a user's after a change made here.
 */
export function storeTrust(db: Queryable, o: StoreTrustOptions = {}): TrustSource {
  const cacheMs = o.policyCacheMs ?? 2_000;
  const now = o.now ?? Date.now;
  const cache = new Map<string, { at: number; policy: Promise<UrlPolicy> }>();
  return {
    decisions: (userId) => o.approvals?.decisions(userId) ?? listApprovalRules(db, userId, now()),
    remember: (userId, d) => o.approvals?.remember(userId, d) ?? rememberApproval(db, userId, d),
    revoke: (userId, id) => o.approvals?.revoke(userId, id) ?? revokeApprovalRule(db, userId, id),
    sitePolicy(userId) {
      const hit = cache.get(userId);
      if (hit && now() - hit.at < cacheMs) return hit.policy;
      const policy = (async () => {
        const stored = storedPolicy(await sitePoliciesFor(db, userId));
        return o.extraPolicy ? mergeUrlPolicies(stored, await o.extraPolicy()) : stored;
      })();
      if (cache.size > 10_000) cache.clear();
      cache.set(userId, { at: now(), policy });
      policy.catch(() => cache.delete(userId));
      return policy;
    },
    forget(userId) {
      if (userId === undefined) cache.clear();
      else cache.delete(userId);
    },
  };
}
