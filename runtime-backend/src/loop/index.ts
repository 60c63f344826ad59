/**
 * `@baton/backend/loop`: the part of the backend's `loop` layer that the packages above it
 * (the `baton` command) use. Anything else in the folder is the layer's own business.
 */
export { spendLine, wireSpend } from "./budget.js";
export { matchDetails } from "./playbook-match.js";
