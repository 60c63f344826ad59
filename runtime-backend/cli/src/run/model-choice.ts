import { autoModel, createModelResolver, type Env, providerTable } from "@baton/backend/providers";

/** The model a run uses, or what the user must set first. */
export type ModelChoice = { readonly ok: true; readonly model: string } | { readonly ok: false; readonly message: string };

/** What to set when no model is usable, from the provider table: printed verbatim by `baton run`. */
export const missingKeysHelp = `no model is configured. Set one of these and run again:

${providerTable.flatMap((e) => (e.setup ?? []).map((line) => `  ${line}`)).join("\n")}

or pick one with --model provider:model (or BATON_MODEL), or replay a script without any model:

  npx baton run "Sign in as ada@example.com" --serve examples/scripts/site --start-url /login.html \\
    --script examples/scripts/login.json
`;

/** The variables whose setting picks a model by itself, for one-line advice (`baton doctor`). */
export const modelKeyNames: readonly string[] = providerTable.flatMap((e) => (e.auto ? [e.auto.keys[0]!] : []));

/**
 * Picks the model of a run started without --backend (an external backend has its own keys):
 * an explicit spec (checked against the environment, so a missing key is reported before
 * any browser starts), else BATON_MODEL, else the first provider whose key is set.
 */
export function chooseModel(explicit: string | undefined, env: Env): ModelChoice {
  const spec = explicit ?? env.BATON_MODEL ?? autoModel(env);
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
