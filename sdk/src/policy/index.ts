/**
 * Trust rules written once and asked by every surface (the engine, `baton mcp`, `baton run`,
 * `baton eval`, the extension): which URLs may be opened or loaded, and which files may be
 * uploaded. Runtime-neutral.
 */
export { guardBrowser } from "./browser-guard.js";
export { type CanonicalHost, canonicalHost, hostMatches } from "./hosts.js";
export { hostResolverRules } from "./host-resolver-rules.js";
export { parseSiteList, type SitePattern, siteMatches } from "./site-list.js";
export {
  foldersInWords,
  guardUploads,
  isAbsolutePath,
  isInside,
  lexicalResolver,
  locateUploads,
  noFileMessage,
  normalizePath,
  type OutsideDecision,
  type PathResolver,
  type UploadFile,
  type UploadGuard,
  type UploadRule,
} from "./upload-rule.js";
export {
  decideUrl,
  hasSiteLists,
  openUrlPolicy,
  type RefusalRule,
  type UrlDecision,
  type UrlKind,
  type UrlPolicy,
  urlPolicyFromLists,
} from "./url-policy.js";
