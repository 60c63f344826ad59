import { Code, ConnectError } from "@connectrpc/connect";
import { createBatonClient } from "@baton/sdk/client";
import { useState } from "preact/hooks";
import { BudgetFields } from "./budget-fields.js";
import { ConsoleSignIn } from "./console-sign-in.js";
import { Field, FormActions } from "./form-parts.js";
import { KeyFields, ModelField, trimmedModel } from "./model-fields.js";
import { type ApprovalPolicy, type AuthState, missingSetup, modeOf, saveAuth, saveSettings, type Settings } from "../settings.js";

/** Checks a backend URL and token with a cheap per-user call; resolves with an error message or "". */
async function check(backendUrl: string, token: string): Promise<string> {
  try {
    await createBatonClient({ baseUrl: backendUrl, token }).listPlaybooks({});
    await saveAuth({ state: "ok", at: Date.now() });
    return "";
  } catch (e) {
    const err = ConnectError.from(e);
    if (err.code === Code.Unauthenticated || err.code === Code.PermissionDenied) return "The backend refused this token.";
    return `Could not reach ${backendUrl}: ${err.rawMessage}`;
  }
}

/** First run: where the backend is and the token to use. */
export function SignIn({ settings }: { settings: Settings }) {
  const [url, setUrl] = useState(settings.backendUrl);
  const [token, setToken] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="signin"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        const problem = await check(url.trim(), token.trim());
        setBusy(false);
        setError(problem);
        if (!problem) await saveSettings({ backendUrl: url.trim(), token: token.trim() });
      }}
    >
      <h1>Connect to your Baton backend</h1>
      <p>
        Start it with <code>npm start</code> in the Baton repository: it prints its URL and where its API token is.
      </p>
      <Field id="signin-url" label="Backend URL">
        <input id="signin-url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} spellcheck={false} />
      </Field>
      <Field id="signin-token" label="API token" help="Kept in this browser's extension storage; sent only to this backend.">
        <input id="signin-token" type="password" value={token} onInput={(e) => setToken(e.currentTarget.value)} placeholder="bt_…" autocomplete="off" />
      </Field>
      <ConsoleSignIn backendUrl={url} />
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" class="btn primary wide" disabled={busy || !token.trim() || !url.trim()}>
        {busy ? "Checking…" : "Sign in"}
      </button>
      <p class="alt-mode">
        No backend?{" "}
        <button type="button" class="link" onClick={() => void saveSettings({ backendUrl: "", token: "" })}>
          Run Baton without a backend
        </button>{" "}
        with your own model key.
      </p>
    </form>
  );
}

/** Settings: backend and token (or, without a backend, the model key), model, step limit, budget per task, approvals, diagnostics. */
export function SettingsView({ settings, auth }: { settings: Settings; auth: AuthState | undefined }) {
  const [draft, setDraft] = useState(settings);
  const [message, setMessage] = useState("");
  const set = (change: Partial<Settings>) => setDraft({ ...draft, ...change });
  const standalone = modeOf(draft) === "standalone";
  const policies: { value: ApprovalPolicy; label: string; help: string }[] = [
    { value: "irreversible", label: "Only what can't be undone", help: "Orders, payments, sending, deleting." },
    { value: "every-change", label: "Every change to a page", help: "Each click, typing or choice, before it happens." },
  ];
  return (
    <form
      class="settings"
      onSubmit={async (e) => {
        e.preventDefault();
        const connection = draft.backendUrl !== settings.backendUrl || draft.token !== settings.token;
        const problem = connection && draft.token && standalone === false ? await check(draft.backendUrl.trim(), draft.token.trim()) : "";
        if (problem) return setMessage(problem);
        const saved = await saveSettings({ ...draft, ...trimmedModel(draft), backendUrl: draft.backendUrl.trim(), token: draft.token.trim() });
        setMessage(missingSetup(saved) ? `Saved. ${missingSetup(saved)}` : "Saved.");
      }}
    >
      <fieldset>
        <legend>Backend</legend>
        <Field id="set-url" label="Backend URL" help={standalone ? "Empty: Baton runs without a backend, in this panel, with your own model key." : "Empty it to run Baton without a backend, with your own model key."}>
          <input id="set-url" value={draft.backendUrl} onInput={(e) => set({ backendUrl: e.currentTarget.value })} placeholder="None: run in this panel" spellcheck={false} />
        </Field>
        {standalone ? null : (
          <>
            <Field
              id="set-token"
              label="API token"
              help={
                auth?.state === "rejected"
                  ? "Signed out: the backend refused this token. Sign in with the console or paste a new one."
                  : "Pasted from the backend (npm start prints where), or filled in by signing in with the console."
              }
            >
              <input id="set-token" type="password" value={draft.token} onInput={(e) => set({ token: e.currentTarget.value })} autocomplete="off" />
            </Field>
            <ConsoleSignIn backendUrl={draft.backendUrl} />
          </>
        )}
        <ModelField value={draft.model} onInput={(model) => set({ model })} standalone={standalone} />
        {standalone ? <KeyFields draft={draft} set={set} /> : null}
      </fieldset>
      <fieldset>
        <legend>Limits</legend>
        <Field id="set-steps" label="Step limit" help="Most steps a new task may take before it stops; empty for the default (50).">
          <input
            id="set-steps"
            type="number"
            min={1}
            max={10000}
            value={draft.maxSteps || ""}
            onInput={(e) => set({ maxSteps: Math.max(0, Math.min(10000, Math.floor(Number(e.currentTarget.value) || 0))) })}
            placeholder="50"
          />
        </Field>
      </fieldset>
      <BudgetFields draft={draft} set={set} />
      <fieldset>
        <legend>Ask me before</legend>
        {policies.map((p) => (
          <label class="radio" key={p.value}>
            <input type="radio" name="approval" checked={draft.approval === p.value} onChange={() => set({ approval: p.value })} />
            <span>
              {p.label}
              <small>{p.help}</small>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Diagnostics</legend>
        <label class="radio">
          <input type="checkbox" checked={draft.diagnostics} onChange={(e) => set({ diagnostics: e.currentTarget.checked })} />
          <span>
            Collect timings
            <small>Counts and latencies per model provider and phase, kept in this browser.</small>
          </span>
        </label>
      </fieldset>
      <FormActions message={message} label="Save" />
    </form>
  );
}
