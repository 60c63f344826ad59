/**
 * `@baton/backend/providers`: the part of the backend's `providers` layer that the packages above it
 * (the `baton` command) use. Anything else in the folder is the layer's own business.
 */
export { autoModel, createModelResolver, type Env, providerHelp, providerTable } from "./registry.js";
export { type Script, ScriptProvider } from "./script.js";
