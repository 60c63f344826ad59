/**
 * `@baton/backend/base`: the part of the backend's `base` layer that the packages above it
 * (the `baton` command) use. Anything else in the folder is the layer's own business.
 */
export { packageDir } from "./package-dir.js";
export { sameSecret } from "./same-secret.js";
