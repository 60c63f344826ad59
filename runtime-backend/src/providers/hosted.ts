/**
 * The providers that need only a key and a base URL (no files, no Node): built from an
 * environment-like map, so `baton serve` (process.env) and the extension's standalone mode (the
 * user's key from the settings) configure them the same way. `registry.ts` adds the script
 * provider, which reads files.
 */
import { GeminiProvider } from "./gemini.js";
import { OpenAiChatProvider } from "./openai-chat.js";
import { OpenAiResponsesProvider } from "./openai-responses.js";
import type { ModelResolver, Provider } from "./types.js";
import { acceptsImages } from "./vision.js";

/** Environment the resolver reads keys and base URLs from. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The provider prefixes of "provider:model", with what each needs, for docs and errors. */
export const providerHelp: Readonly<Record<string, string>> = {
  openai: "OpenAI Responses API; OPENAI_API_KEY (OPENAI_BASE_URL optional)",
  chat: "OpenAI Chat Completions or any compatible server; BATON_CHAT_BASE_URL, BATON_CHAT_API_KEY (or OPENAI_*)",
  "chat-json": "like chat, with tool calls as JSON in the text (servers without tool support)",
  openrouter: "OpenRouter (Chat Completions); OPENROUTER_API_KEY",
  ollama: "Ollama's OpenAI-compatible API in JSON-in-text mode; OLLAMA_BASE_URL (default http://127.0.0.1:11434/v1)",
  gemini: "Gemini via @google/genai; GEMINI_API_KEY or GOOGLE_API_KEY (GEMINI_BASE_URL optional)",
  script: "replays a script file from the operator's script directory (--script-dir / BATON_SCRIPT_DIR): script:name.json",
};

function need(env: Env, ...names: string[]): string {
  for (const n of names) {
    const v = env[n];
    if (v) return v;
  }
  throw new Error(`set ${names.join(" or ")}`);
}

/** The provider for `prefix` (any but `script`), configured from `env`; a missing key is an error naming the variable. */
export function hostedProvider(prefix: string, env: Env): Provider {
  // Streaming is on unless BATON_STREAM=0 (for servers that cannot stream tool calls).
  const stream = env.BATON_STREAM !== "0";
  // Which models read screenshots, with the operator's BATON_VISION_MODELS / BATON_TEXT_ONLY_MODELS.
  const vision = (m: string) => acceptsImages(prefix, m, env);
  switch (prefix) {
    case "openai":
      return new OpenAiResponsesProvider({ apiKey: need(env, "OPENAI_API_KEY"), baseURL: env.OPENAI_BASE_URL, stream, vision });
    case "chat":
    case "chat-json":
      return new OpenAiChatProvider({
        name: prefix,
        apiKey: need(env, "BATON_CHAT_API_KEY", "OPENAI_API_KEY"),
        baseURL: env.BATON_CHAT_BASE_URL ?? env.OPENAI_BASE_URL,
        jsonMode: prefix === "chat-json",
        stream,
        vision,
      });
    case "openrouter":
      return new OpenAiChatProvider({ name: prefix, apiKey: need(env, "OPENROUTER_API_KEY"), baseURL: "https://openrouter.ai/api/v1", stream, vision });
    case "ollama":
      return new OpenAiChatProvider({
        name: prefix,
        apiKey: env.OLLAMA_API_KEY ?? "ollama",
        baseURL: env.OLLAMA_BASE_URL ?? "http://127.0.0.1:11434/v1",
        jsonMode: env.BATON_OLLAMA_NATIVE_TOOLS !== "1",
        stream,
        vision,
      });
    case "gemini":
      return new GeminiProvider({ apiKey: need(env, "GEMINI_API_KEY", "GOOGLE_API_KEY"), baseUrl: env.GEMINI_BASE_URL, stream, vision });
    default:
      throw new Error(`unknown provider "${prefix}"; use one of: ${Object.keys(providerHelp).join(", ")}`);
  }
}

/**
 * A resolver of "provider:model" strings: each prefix's provider is built once by `build`;
 * `extra` adds or overrides providers by prefix (tests).
 */
export function prefixResolver(build: (prefix: string) => Provider, extra: Readonly<Record<string, Provider>> = {}): ModelResolver {
  const cache = new Map<string, Provider>();
  return (spec) => {
    const at = spec.indexOf(":");
    if (at <= 0 || at === spec.length - 1) throw new Error(`"${spec}" is not "provider:model"`);
    const prefix = spec.slice(0, at);
    const model = spec.slice(at + 1);
    const own = extra[prefix];
    if (own) return { provider: own, model };
    let provider = cache.get(prefix);
    if (!provider) {
      provider = build(prefix);
      cache.set(prefix, provider);
    }
    return { provider, model };
  };
}
