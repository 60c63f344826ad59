/**
 * Trust rules written once and asked by every surface (the engine, the backend's loop,
 * `baton mcp`, `baton run`, `baton eval`, the extension): which URLs may be opened or loaded,
 * where the agent may only read, which files may be uploaded, and the approvals a person asked
 * to have remembered. Runtime-neutral.
 */
export { attachedGuardNotice, type GuardScope, guardBrowser } from "./browser-guard.js";
export { type CanonicalHost, canonicalHost, hostMatches } from "./hosts.js";
export { hostResolverRules } from "./host-resolver-rules.js";
export { declarativeNetRequestRules, type NetResourceType, type NetRule } from "./net-request-rules.js";
export { decisionLive, defaultRememberMs, refusedByDecision, rememberDurations, type RememberedDecision, rememberedFor, siteOf, withDecision } from "./remembered.js";
export { parseSiteList, siteCovers, type SitePattern, siteMatches } from "./site-list.js";
export {
  type ActionDecision,
  decideAction,
  decideFrame,
  mergeUrlPolicies,
  refuseUnlessAllowed,
  type SiteLists,
  siteListsOf,
  sitePolicyFromLists,
  sitePolicyFromObject,
} from "./site-policy.js";
export {
  guardUploads,
  isAbsolutePath,
  isInside,
  isRootFolder,
  lexicalResolver,
  locateUploads,
  rootFolderProblem,
  noFileMessage,
  normalizePath,
  outsideFolders,
  type OutsideDecision,
  type PathResolver,
  type UploadFile,
  type UploadGuard,
  type UploadRule,
} from "./upload-rule.js";
export {
  decideUrl,
  describeSites,
  hasSiteLists,
  type ListNames,
  openUrlPolicy,
  type RefusalRule,
  type UrlDecision,
  type UrlKind,
  type UrlPolicy,
  urlPolicyFromLists,
} from "./url-policy.js";
