/**
 * `@baton/backend/server`: the part of the backend's `server` layer that the packages above it
 * (the `baton` command) use. Anything else in the folder is the layer's own business.
 */
export { hostGuard, isLoopbackListener, linkBase, parseHostList } from "./allowed-hosts.js";
export { type Backend, startBackend } from "./app.js";
export { bearerToken } from "./auth.js";
export { ConsoleBuildMissing } from "./console-pages.js";
