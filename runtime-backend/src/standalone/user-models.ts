import { hostedProvider, prefixResolver, providerTable } from "../providers/hosted.js";
import type { ModelResolver } from "../providers/types.js";

/** The user's own model account, as the extension's settings hold it. */
export interface UserModelKey {
  /** The API key (empty for a local server that needs none, such as Ollama). */
  readonly apiKey: string;
  /** Another endpoint than the provider's own (an OpenAI-compatible server, a proxy); empty for the default. */
  readonly baseUrl?: string;
}

/**
 * The standalone mode's model resolver: "provider:model" (openai, chat, chat-json, openrouter,
 * ollama, gemini, anthropic) built from the user's one key and base URL, the same providers `baton serve`
 * builds from its environment. Script models read files: not here.
 */
export function userModelResolver(user: UserModelKey): ModelResolver {
  const key = user.apiKey || undefined;
  const base = user.baseUrl?.trim() || undefined;
  const env = {
    OPENAI_API_KEY: key,
    BATON_CHAT_API_KEY: key,
    OPENROUTER_API_KEY: key,
    OLLAMA_API_KEY: key,
    GEMINI_API_KEY: key,
    ANTHROPIC_API_KEY: key,
    OPENAI_BASE_URL: base,
    BATON_CHAT_BASE_URL: base,
    OLLAMA_BASE_URL: base,
    GEMINI_BASE_URL: base,
    ANTHROPIC_BASE_URL: base,
  };
  return prefixResolver((prefix) => {
    if (prefix === "script") throw new Error("script models replay files on a backend; in the extension, choose a provider such as openai, chat or gemini");
    if (!key && !providerTable.find((e) => e.prefix === prefix)?.keyless) throw new Error(`add your ${prefix} API key in Baton's settings`);
    return hostedProvider(prefix, env);
  });
}
