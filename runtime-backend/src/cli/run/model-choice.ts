import { createModelResolver, type Env } from "../../providers/registry.js";

/** The model a run uses, or what the user must set first. */
export type ModelChoice = { readonly ok: true; readonly model: string } | { readonly ok: false; readonly message: string };

/** What to set when no model is usable: printed verbatim by `baton run`. */
export const missingKeysHelp = `no model is configured. Set one of these and run again:

  export OPENAI_API_KEY=sk-...          # OpenAI (default model openai:gpt-5-mini)
  export GEMINI_API_KEY=...             # Gemini (default model gemini:gemini-2.5-flash)
  export BATON_CHAT_BASE_URL=http://host:port/v1   # any OpenAI-compatible server,
    # with --model chat:<model name> (and BATON_CHAT_API_KEY if the server needs a key)
  export OLLAMA_BASE_URL=http://127.0.0.1:11434/v1 # a local Ollama, with --model ollama:<model>

or pick one with --model provider:model (or BATON_MODEL), or replay a script without any model:

  npx baton run "Sign in as ada@example.com" --serve examples/scripts/site --start-url /login.html \\
    --script examples/scripts/login.json
`;

/**
 * Picks the model of a run started without --backend (an external backend has its own keys):
 * an explicit spec (checked against the environment, so a missing key is reported before
 * any browser starts), else BATON_MODEL, else the first provider whose key is set.
 */
export function chooseModel(explicit: string | undefined, env: Env): ModelChoice {
  const spec =
    explicit ??
    env.BATON_MODEL ??
    (env.OPENAI_API_KEY ? "openai:gpt-5-mini" : env.GEMINI_API_KEY || env.GOOGLE_API_KEY ? "gemini:gemini-2.5-flash" : undefined);
  if (!spec) return { ok: false, message: missingKeysHelp };
  try {
    // Building the provider reads its keys; it makes no network call.
    createModelResolver(env)(spec);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, message: `the model "${spec}" cannot be used: ${why}.\n\n${missingKeysHelp.replace(/^no model is configured\. /, "")}` };
  }
  return { ok: true, model: spec };
}
