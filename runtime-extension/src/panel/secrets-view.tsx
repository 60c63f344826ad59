import type { Secret } from "@baton/sdk/client";
import { useEffect, useState } from "preact/hooks";
import { deleteSecret, loadSecrets, saveSecret } from "../secrets-store.js";
import { Field, FormActions } from "./form-parts.js";

/**
 * Settings' Secrets section: add a named secret (its value in a password field, never shown
 * again), list names and origins, delete one. The model writes `<secret>name</secret>`.
 */
export function SecretsSection() {
  const [list, setList] = useState<readonly Secret[]>([]);
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [origins, setOrigins] = useState("");
  const [message, setMessage] = useState("");
  useEffect(() => {
    void loadSecrets().then(setList);
  }, []);
  return (
    <form
      class="settings secrets"
      aria-label="Secrets"
      onSubmit={async (e) => {
        e.preventDefault();
        const scoped = origins.split(/[\s,]+/).filter(Boolean);
        try {
          setList(await saveSecret({ name: name.trim(), value, ...(scoped.length ? { origins: scoped } : {}) }));
          setMessage(`Saved ${name.trim()}.`);
          setName("");
          setValue("");
          setOrigins("");
        } catch (err) {
          setMessage(err instanceof Error ? err.message : String(err));
        }
      }}
    >
      <fieldset>
        <legend>Secrets</legend>
        <p class="help">
          Values the agent types without seeing them: it writes <code>{"<secret>name</secret>"}</code> and this browser types the value, only on the
          origins you give. Kept in this browser; never sent to the backend.
        </p>
        {list.length ? (
          <ul class="secret-list">
            {list.map((s) => (
              <li key={s.name}>
                <span>
                  <code>{s.name}</code>
                  <small>{s.origins?.length ? s.origins.join(", ") : "any site"}</small>
                </span>
                <button type="button" class="btn" aria-label={`Delete ${s.name}`} onClick={async () => setList(await deleteSecret(s.name))}>
                  Delete
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p class="help">No secrets yet.</p>
        )}
        <Field id="secret-name" label="Name">
          <input id="secret-name" value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="password" spellcheck={false} autocomplete="off" />
        </Field>
        <Field id="secret-value" label="Value">
          <input id="secret-value" type="password" value={value} onInput={(e) => setValue(e.currentTarget.value)} autocomplete="new-password" />
        </Field>
        <Field id="secret-origins" label="Allowed origins" help="Separate several with spaces. Empty: any site.">
          <input id="secret-origins" value={origins} onInput={(e) => setOrigins(e.currentTarget.value)} placeholder="https://app.example.com" spellcheck={false} />
        </Field>
      </fieldset>
      <FormActions message={message} label="Add secret" disabled={!name.trim() || !value} />
    </form>
  );
}
