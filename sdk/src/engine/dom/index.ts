/**
 * The DOM fallback: snapshot and actions through a page-injected agent, for pages where the
 * debugger cannot attach. Same handler type, same text format, same refs semantics.
 */
export { domAgentSource } from "../gen/in-page-source.js";
export { DomEngine, type DomPageSnapshot } from "./dom-engine.js";
export { domHandlers } from "./dom-handlers.js";
export { cdpDomRunner, type DomRunner } from "./dom-runner.js";
