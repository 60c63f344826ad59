/**
 * `@baton/backend/log`: the part of the backend's `log` layer that the packages above it
 * (the `baton` command) use. Anything else in the folder is the layer's own business.
 */
export { createLogger, type LogFormat, logFormatFor, logFormats, textDestination } from "./logger.js";
export { createRedactor, envSecrets, type Redact, redactText } from "./redact.js";
export { recordSpan, spanAttr } from "./spans.js";
export { sessionTraceId, traceIds } from "./trace-ids.js";
