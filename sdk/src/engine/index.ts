/**
 * The CDP perception and action engine: runtime-neutral, speaking only `CdpTransport`.
 */
export * from "./coordinates.js";
export { Engine, type EngineOptions, type ResolvedElement } from "./engine.js";
export { type EngineHandlers, type EngineToolCase, engineHandlers } from "./handlers.js";
export { type DialogPolicy, PageSession, type PageSessionOptions, TargetGoneError } from "./page-session.js";
export { RefTable, type RefEntry } from "./refs.js";
export { paginate, type TextPage } from "./render-text.js";
export { frameLabel, quoted, sanitizeText, sanitizeUrl } from "./sanitize.js";
export { type PageSnapshot, type SnapshotElement, type SnapshotLine, takePageSnapshot } from "./snapshot.js";
export { cdpDomRunner, DomEngine, type DomRunner, domAgentSource, domHandlers } from "./dom/index.js";
export { defaultQuietWindowMs, type SettleOptions } from "./settle.js";
export { defaultSnapshotMaxAgeMs } from "./snapshot-reuse.js";
