/**
 * `@baton/backend/store`: the part of the backend's `store` layer that the packages above it
 * (the `baton` command) use. Anything else in the folder is the layer's own business.
 */
export { createAccount, createSignInCode, createStartSignInCode, getAccount, makeAdmin } from "./accounts.js";
export { DataDirBusy } from "./data-dir.js";
export type { Db } from "./db.js";
export { openDb } from "./open.js";
export { listPlaybooks } from "./playbooks.js";
export { SessionStore } from "./session-store.js";
export { outcomeSql, summaryColumns, summaryFromRow } from "./sessions.js";
export { createToken, ensureUser, issueToken, registerToken, userForToken } from "./users.js";
// Types the layer's exported functions name, so the published declarations can name them too.
export type { Queryable } from "./db.js";
export type { BudgetLimits } from "./sessions.js";
