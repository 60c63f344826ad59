/**
 * The Baton client: a typed AgentService client and `runTask`, the client side of the agent
 * loop. Runtime-neutral (browser or Node).
 */
export { type BatonClient, type BatonClientOptions, bearerToken, createBatonClient } from "./create-client.js";
export { binaryTransport, type BinaryTransportOptions } from "./binary-transport.js";
export { clientTools } from "./client-tools.js";
export { describeCall, type ElementLabel, isSecretField, secretBullets, type RefLookup } from "./describe-call.js";
export { createPkce, type Pkce, s256Challenge } from "./pkce.js";
export { withoutBrowser } from "./without-browser.js";
export { type CallJournal, type JournalEntry, memoryJournal } from "./journal.js";
export { backoffMs, defaultRetry, isRetryable, type RetryOptions } from "./retry.js";
export { secretsScreenMask } from "./secret-mask.js";
export { parseTotpSeed, type TotpSeed } from "./totp-seed.js";
export { checkSecrets, maskText, placeholder, type Secret, type SecretPage, secretsNote, withSecrets } from "./secrets.js";
export {
  type ApprovalDecision,
  type ApprovalRequest,
  type ExtensionCallInfo,
  type ExtensionTools,
  type RunContext,
  type RunEvent,
  type RunTaskOptions,
  endedStatus,
  runTask,
  type TaskBudget,
  type TaskOutcome,
} from "./run-task.js";
