import { useState } from "preact/hooks";
import { missingSetup, saveSettings, type Settings } from "../settings.js";
import { Field, FormActions } from "./form-parts.js";

/** The model a task uses: "provider:model", offered from a short list. */
export function ModelField(p: { value: string; onInput: (v: string) => void; standalone: boolean }) {
  return (
    <Field
      id="set-model"
      label="Model"
      help={
        p.standalone
          ? '"provider:model": openai:gpt-5-mini, anthropic:claude-sonnet-5-5, gemini:gemini-2.5-flash, chat:MODEL for any OpenAI-compatible server (with its base URL), ollama:qwen3 for a local Ollama.'
          : '"provider:model", such as openai:gpt-5-mini, anthropic:claude-sonnet-5-5 or gemini:gemini-2.5-flash; script:NAME replays a script file from the backend’s --script-dir. Empty: the backend’s default.'
      }
    >
      <input id="set-model" value={p.value} onInput={(e) => p.onInput(e.currentTarget.value)} placeholder={p.standalone ? "openai:gpt-5-mini" : "Backend default"} spellcheck={false} list="models" />
      <datalist id="models">
        <option value="openai:gpt-5-mini" />
        <option value="anthropic:claude-sonnet-5-5" />
        <option value="gemini:gemini-2.5-flash" />
        <option value="ollama:qwen3" />
      </datalist>
    </Field>
  );
}

/** Standalone mode: the user's own key and the provider's base URL. */
export function KeyFields(p: { draft: Settings; set: (change: Partial<Settings>) => void }) {
  return (
    <>
      <Field id="set-key" label="API key" help="Your own key for this model’s provider: kept in this browser’s extension storage, sent only to the provider, masked in everything Baton stores or shows.">
        <input id="set-key" type="password" value={p.draft.modelKey} onInput={(e) => p.set({ modelKey: e.currentTarget.value })} autocomplete="off" spellcheck={false} />
      </Field>
      <Field id="set-base" label="Base URL (optional)" help="Another endpoint than the provider’s own: an OpenAI-compatible server (its URL up to /v1), a proxy, a local model server. For Anthropic, the host alone: /v1/messages is added.">
        <input id="set-base" value={p.draft.modelBaseUrl} onInput={(e) => p.set({ modelBaseUrl: e.currentTarget.value })} placeholder="Provider default" spellcheck={false} />
      </Field>
    </>
  );
}

/** The trimmed form of what the model fields hold, as saved. */
export function trimmedModel(d: Settings): Partial<Settings> {
  return { model: d.model.trim(), modelKey: d.modelKey.trim(), modelBaseUrl: d.modelBaseUrl.trim() };
}

/**
 * First run without a backend (or a setup left half done): says what is missing and takes the
 * model, the user's key and the base URL; or goes back to connecting a backend; or, with no key at
 * all, asks Chrome's built-in model about the page instead (`onAsk`).
 */
export function StandaloneSetup({ settings, onAsk }: { settings: Settings; onAsk: () => void }) {
  const [draft, setDraft] = useState(settings);
  const [url, setUrl] = useState("");
  const set = (change: Partial<Settings>) => setDraft({ ...draft, ...change });
  return (
    <form
      class="signin standalone-setup"
      onSubmit={async (e) => {
        e.preventDefault();
        await saveSettings(url.trim() ? { backendUrl: url.trim() } : trimmedModel(draft));
      }}
    >
      <h1>Run Baton without a backend</h1>
      <p>The agent runs here in the panel and calls the model with your own key. Sessions are kept in this browser.</p>
      <p class="setup-missing" role="alert">
        {missingSetup({ ...settings, backendUrl: "" })}
      </p>
      <p class="built-in-offer">
        No key? Chrome’s built-in model answers questions about the page you have open, on this device.{" "}
        <button type="button" class="link" onClick={onAsk}>
          Ask Chrome’s built-in model
        </button>
      </p>
      <ModelField value={draft.model} onInput={(model) => set({ model })} standalone />
      <KeyFields draft={draft} set={set} />
      <Field id="setup-backend" label="Or a backend URL" help="A team’s Baton backend runs the agent instead (connected mode).">
        <input id="setup-backend" value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="http://127.0.0.1:8787" spellcheck={false} />
      </Field>
      <FormActions message="" label={url.trim() ? "Connect" : "Save"} />
    </form>
  );
}
