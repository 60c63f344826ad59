/**
 * `@baton/backend/context`: the part of the backend's `context` layer that the packages above it
 * (the `baton` command) use. Anything else in the folder is the layer's own business.
 */
export { defaultFoldOptions } from "./fold.js";
