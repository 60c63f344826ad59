/**
 * The CDP perception and action engine: runtime-neutral, speaking only `CdpTransport`.
 */
export * from "./base/coordinates.js";
export { Engine, type EngineOptions, type EngineParts } from "./engine.js";
export { type PageSnapshotOptions, PageState, type SnapshotParams, viewportOf } from "./page-state.js";
export { type Aim, type ResolvedElement, Targeting } from "./targeting.js";
export { type ActionMark, Evidence, type FocusedElement } from "./evidence.js";
export { type EngineHandlers, type EngineToolCase, engineHandlers } from "./handlers.js";
export { type DialogPolicy, PageSession, type PageSessionOptions, TargetGoneError } from "./page/page-session.js";
export { RefTable, type RefEntry } from "./snapshot/refs.js";
export { paginate, renderLine, type SnapshotLine, type TextPage } from "./snapshot/render-text.js";
export { diffHeader, type PageDiff, pageDiff } from "./snapshot/page-diff.js";
export { frameLabel, quoted, sanitizeText, sanitizeUrl, stripFormatChars } from "./base/sanitize.js";
export { type PageSnapshot, type SnapshotElement, takePageSnapshot } from "./snapshot/snapshot.js";
export { cdpDomRunner, DomEngine, type DomRunner, domAgentSource, domHandlers } from "./dom/index.js";
export { defaultQuietWindowMs, type SettleOptions } from "./page/settle.js";
export { defaultSnapshotMaxAgeMs } from "./page/snapshot-reuse.js";
export { openableUrl } from "./page/url-checks.js";
export { maskColour, type Painted, paintedOver } from "./mask/paint.js";
export { type BoxPlace } from "./mask/secret-boxes.js";
export { paintShareExpression, type ShareBox } from "./mask/paint-share.js";
