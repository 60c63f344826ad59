/**
 * The providers, as one table: each prefix of "provider:model" with what it needs (the CLI's
 * help, `baton run`'s advice when no model is configured, the docs) and how it is built. The
 * providers that need only a key and a base URL (no files, no Node) are built here from an
 * environment-like map, so `baton serve` (process.env) and the extension's standalone mode (the
 * user's key from the settings) configure them the same way; `registry.ts` builds the script
 * provider, which reads files.
 */
import { AnthropicProvider } from "./anthropic.js";
import { GeminiProvider } from "./gemini.js";
import { OpenAiChatProvider } from "./openai-chat.js";
import { OpenAiResponsesProvider } from "./openai-responses.js";
import type { ModelResolver, Provider } from "./types.js";
import { acceptsImages } from "./vision.js";

/** Environment the resolver reads keys and base URLs from. */
export type Env = Readonly<Record<string, string | undefined>>;

/** What every hosted provider is built with, besides its key. */
interface Common {
  /** Streaming is on unless BATON_STREAM=0 (for servers that cannot stream tool calls). */
  readonly stream: boolean;
  /** Which models read screenshots, with the operator's BATON_VISION_MODELS / BATON_TEXT_ONLY_MODELS. */
  readonly vision: (model: string) => boolean;
}

/** One provider prefix. */
export interface ProviderEntry {
  readonly prefix: string;
  /** One line: the API, and the variables it reads. */
  readonly help: string;
  /** `baton run` with no model named uses this model when one of these variables is set (the first such entry wins). */
  readonly auto?: { readonly keys: readonly string[]; readonly model: string };
  /** True when it works without an API key (a local server, the browser's own model). */
  readonly keyless?: boolean;
  /** What `baton run` suggests setting when no model is configured. */
  readonly setup?: readonly string[];
  /** Builds the provider from the environment; absent for `script` (registry.ts builds it). */
  readonly build?: (env: Env, c: Common) => Provider;
}

function need(env: Env, ...names: string[]): string {
  for (const n of names) {
    const v = env[n];
    if (v) return v;
  }
  throw new Error(`set ${names.join(" or ")}`);
}

/** Every provider, in the order the help lists them. */
export const providerTable: readonly ProviderEntry[] = [
  {
    prefix: "openai",
    help: "OpenAI Responses API; OPENAI_API_KEY (OPENAI_BASE_URL optional)",
    auto: { keys: ["OPENAI_API_KEY"], model: "gpt-5-mini" },
    setup: ["export OPENAI_API_KEY=sk-...          # OpenAI (default model openai:gpt-5-mini)"],
    build: (env, c) => new OpenAiResponsesProvider({ apiKey: need(env, "OPENAI_API_KEY"), baseURL: env.OPENAI_BASE_URL, ...c }),
  },
  {
    prefix: "gemini",
    help: "Gemini via @google/genai; GEMINI_API_KEY or GOOGLE_API_KEY (GEMINI_BASE_URL optional)",
    auto: { keys: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], model: "gemini-2.5-flash" },
    setup: ["export GEMINI_API_KEY=...             # Gemini (default model gemini:gemini-2.5-flash)"],
    build: (env, c) => new GeminiProvider({ apiKey: need(env, "GEMINI_API_KEY", "GOOGLE_API_KEY"), baseUrl: env.GEMINI_BASE_URL, ...c }),
  },
  {
    prefix: "anthropic",
    help: "Anthropic Messages API (Claude); ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL optional)",
    auto: { keys: ["ANTHROPIC_API_KEY"], model: "claude-sonnet-5-5" },
    setup: ["export ANTHROPIC_API_KEY=sk-ant-...   # Anthropic (default model anthropic:claude-sonnet-5-5)"],
    build: (env, c) => new AnthropicProvider({ apiKey: need(env, "ANTHROPIC_API_KEY"), baseURL: env.ANTHROPIC_BASE_URL, ...c }),
  },
  {
    prefix: "chat",
    help: "OpenAI Chat Completions or any compatible server; BATON_CHAT_BASE_URL, BATON_CHAT_API_KEY (or OPENAI_*)",
    setup: [
      "export BATON_CHAT_BASE_URL=http://host:port/v1   # any OpenAI-compatible server,",
      "  # with --model chat:<model name> (and BATON_CHAT_API_KEY if the server needs a key)",
    ],
    build: (env, c) => chat("chat", env, c),
  },
  {
    prefix: "chat-json",
    help: "like chat, with tool calls as JSON in the text (servers without tool support)",
    build: (env, c) => chat("chat-json", env, c),
  },
  {
    prefix: "openrouter",
    help: "OpenRouter (Chat Completions); OPENROUTER_API_KEY",
    build: (env, c) => new OpenAiChatProvider({ name: "openrouter", apiKey: need(env, "OPENROUTER_API_KEY"), baseURL: "https://openrouter.ai/api/v1", ...c }),
  },
  {
    prefix: "ollama",
    keyless: true,
    help: "Ollama's OpenAI-compatible API in JSON-in-text mode; OLLAMA_BASE_URL (default http://127.0.0.1:11434/v1)",
    setup: ["export OLLAMA_BASE_URL=http://127.0.0.1:11434/v1 # a local Ollama, with --model ollama:<model>"],
    build: (env, c) =>
      new OpenAiChatProvider({
        name: "ollama",
        apiKey: env.OLLAMA_API_KEY ?? "ollama",
        baseURL: env.OLLAMA_BASE_URL ?? "http://127.0.0.1:11434/v1",
        jsonMode: env.BATON_OLLAMA_NATIVE_TOOLS !== "1",
        ...c,
      }),
  },
  {
    prefix: "built-in",
    keyless: true,
    help: "Chrome's built-in model (Gemini Nano, the Prompt API) in the extension's panel, with no key: answers questions about the open page; it does not drive the agent",
    build: () => {
      throw new Error("Chrome's built-in model runs only in the extension's panel (Ask about this page), and only answers questions: it cannot drive the agent");
    },
  },
  {
    prefix: "script",
    help: "replays a script file from the operator's script directory (--script-dir / BATON_SCRIPT_DIR): script:name.json",
  },
];

function chat(name: "chat" | "chat-json", env: Env, c: Common): Provider {
  return new OpenAiChatProvider({
    name,
    apiKey: need(env, "BATON_CHAT_API_KEY", "OPENAI_API_KEY"),
    baseURL: env.BATON_CHAT_BASE_URL ?? env.OPENAI_BASE_URL,
    jsonMode: name === "chat-json",
    ...c,
  });
}

/** The provider prefixes of "provider:model", with what each needs, for help and errors. */
export const providerHelp: Readonly<Record<string, string>> = Object.fromEntries(providerTable.map((e) => [e.prefix, e.help]));

/** The model `baton run` uses when none is named: the first provider whose key is set. */
export function autoModel(env: Env): string | undefined {
  const e = providerTable.find((p) => p.auto?.keys.some((k) => env[k]));
  return e?.auto ? `${e.prefix}:${e.auto.model}` : undefined;
}

/** The provider for `prefix` (any but `script`), configured from `env`; a missing key is an error naming the variable. */
export function hostedProvider(prefix: string, env: Env): Provider {
  const build = providerTable.find((e) => e.prefix === prefix)?.build;
  if (!build) throw new Error(`unknown provider "${prefix}"; use one of: ${Object.keys(providerHelp).join(", ")}`);
  return build(env, { stream: env.BATON_STREAM !== "0", vision: (m) => acceptsImages(prefix, m, env) });
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
