/**
 * `@baton/backend/console`: the part of the backend's `console` layer that the packages above it
 * (the `baton` command) use. Anything else in the folder is the layer's own business.
 */
export { userIdPattern } from "./accounts.js";
export { signInUrl } from "./deps.js";
