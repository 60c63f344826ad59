import { useEffect, useState } from "preact/hooks";
import { deleteSecret, saveSecret, type StoredSecret, storedSecrets } from "../secrets-store.js";
import { Field, FormActions } from "./form-parts.js";

/** What a secret holds: a value typed as it is, or a TOTP seed whose current code is typed. */
type Kind = "password" | "totp";

const kinds: { value: Kind; label: string }[] = [
  { value: "password", label: "Password" },
  { value: "totp", label: "One-time code" },
];

/**
 * Settings' Secrets section: add a named secret (a password, or the seed of an authenticator app's
 * one-time codes; either in a password field, never shown again), list names, kinds and origins,
 * delete one. The model writes `<secret>name</secret>`.
 */
export function SecretsSection() {
  const [list, setList] = useState<readonly StoredSecret[]>([]);
  const [kind, setKind] = useState<Kind>("password");
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [origins, setOrigins] = useState("");
  const [message, setMessage] = useState("");
  useEffect(() => {
    void storedSecrets().then(setList);
  }, []);
  const totp = kind === "totp";
  return (
    <form
      class="settings secrets"
      aria-label="Secrets"
      onSubmit={async (e) => {
        e.preventDefault();
        const scoped = origins.split(/[\s,]+/).filter(Boolean);
        try {
          setList(await saveSecret({ name: name.trim(), value, ...(totp ? { kind: "totp" as const } : {}), ...(scoped.length ? { origins: scoped } : {}) }));
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
          Values the agent types without seeing them: it writes <code>{"<secret>name</secret>"}</code> and this browser types the value (for a one-time code, the
          code of the moment), only on the origins you give. Kept in this browser; never sent to the backend.
        </p>
        {list.length ? (
          <ul class="secret-list">
            {list.map((s) => (
              <li key={s.name}>
                <span>
                  <code>{s.name}</code>
                  {s.kind === "totp" ? <span class="secret-kind">one-time code</span> : null}
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
        <div class="kind-switch" role="radiogroup" aria-label="Kind of secret">
          {kinds.map((k) => (
            <label class="radio" key={k.value}>
              <input type="radio" name="secret-kind" checked={kind === k.value} onChange={() => setKind(k.value)} />
              <span>{k.label}</span>
            </label>
          ))}
        </div>
        <Field id="secret-name" label="Name">
          <input id="secret-name" value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder={totp ? "otp" : "password"} spellcheck={false} autocomplete="off" />
        </Field>
        <Field
          id="secret-value"
          label={totp ? "Authenticator key" : "Value"}
          {...(totp ? { help: "The key a site shows when it sets up an authenticator app (Base32, such as JBSWY3DPEHPK3PXP), or its otpauth://totp/… link." } : {})}
        >
          <input id="secret-value" type="password" value={value} onInput={(e) => setValue(e.currentTarget.value)} autocomplete={totp ? "off" : "new-password"} spellcheck={false} />
        </Field>
        <Field id="secret-origins" label="Allowed origins" help="Separate several with spaces. Empty: any site.">
          <input id="secret-origins" value={origins} onInput={(e) => setOrigins(e.currentTarget.value)} placeholder="https://app.example.com" spellcheck={false} />
        </Field>
      </fieldset>
      <FormActions message={message} label={totp ? "Add one-time code" : "Add secret"} disabled={!name.trim() || !value} />
    </form>
  );
}
