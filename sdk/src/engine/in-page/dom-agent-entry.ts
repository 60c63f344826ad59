/**
 * The entry of the in-page bundle (`gen/in-page-source.ts`, written by `npm run gen`): evaluated
 * once per document, it installs the DOM agent (`globalThis.__batonDomAgent`).
 */
import { installDomAgent } from "./dom-agent.js";

installDomAgent();
