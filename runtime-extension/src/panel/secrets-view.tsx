import type { Secret } from "@baton/sdk/client";
import { useEffect, useState } from "preact/hooks";
import { deleteSecret, loadSecrets, saveSecret } from "../secrets-store.js";

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
        <div class="field">
          <label for="secret-name">Name</label>
          <input id="secret-name" value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="password" spellcheck={false} autocomplete="off" />
        </div>
        <div class="field">
          <label for="secret-value">Value</label>
          <input id="secret-value" type="password" value={value} onInput={(e) => setValue(e.currentTarget.value)} autocomplete="new-password" />
        </div>
        <div class="field">
          <label for="secret-origins">Allowed origins</label>
          <input id="secret-origins" value={origins} onInput={(e) => setOrigins(e.currentTarget.value)} placeholder="https://app.example.com" spellcheck={false} />
          <p class="help">Separate several with spaces. Empty: any site.</p>
        </div>
      </fieldset>
      <div class="settings-actions">
        {message ? (
          <span class="form-note" role="status">
            {message}
          </span>
        ) : null}
        <button type="submit" class="btn primary" disabled={!name.trim() || !value}>
          Add secret
        </button>
      </div>
    </form>
  );
}
