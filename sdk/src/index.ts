/**
 * @baton/sdk: the runtime-neutral Baton SDK. The tool contract lives under `@baton/sdk/contract`.
 */
export * from "./contract/index.js";
