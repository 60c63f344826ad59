/**
 * @baton/backend as a library: start a backend in-process (what `baton serve` does), issue API
 * tokens, and pick models — for integrators' tests, examples and embedding.
 */
export { type Backend, type BackendOptions, startBackend } from "./server/app.js";
export type { CorsOptions } from "./server/cors.js";
export { createModelResolver, providerHelp } from "./providers/registry.js";
export { type Script, ScriptProvider, type ScriptSource } from "./providers/script.js";
export type { Provider } from "./providers/types.js";
export type { ModelResolver } from "./loop/deps.js";
export { createToken, ensureUser } from "./store/users.js";
export { recordSpan, spanAttr } from "./log/spans.js";
export { sessionTraceId, traceIds } from "./log/trace-ids.js";
export { batonVersion } from "./version.js";
