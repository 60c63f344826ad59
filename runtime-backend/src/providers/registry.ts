import { type Env, hostedProvider, prefixResolver } from "./hosted.js";
import { ScriptDirProvider } from "./script.js";
import type { ModelResolver, Provider } from "./types.js";

export { autoModel, type Env, providerHelp, providerTable } from "./hosted.js";

/**
 * Resolves "provider:model" strings to providers configured from the environment. Providers
 * are built once per prefix; a missing key is an error
 * naming the variable to set. `extra` adds or overrides providers by prefix (tests).
 */
export function createModelResolver(env: Env = process.env, extra: Readonly<Record<string, Provider>> = {}): ModelResolver {
  return prefixResolver((prefix) => {
    if (prefix !== "script") return hostedProvider(prefix, env);
    // Off unless the operator names a directory: a session's model name is client input.
    if (!env.BATON_SCRIPT_DIR) throw new Error("script models are off on this backend (the operator enables them with --script-dir DIR)");
    return new ScriptDirProvider(env.BATON_SCRIPT_DIR);
  }, extra);
}
