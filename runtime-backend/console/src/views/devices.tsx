/** Devices and API tokens: what can act for the user, renamed or revoked here. */
import type { ApiToken } from "@baton/gen/baton/v1/console_pb";
import { useState } from "preact/hooks";
import { consoleApi, errorText } from "../client.js";
import { ago, when } from "../format.js";
import { Empty, ErrorNote, InlineCreate, onSubmitRun, PageHeader, ShownOnce } from "../ui.js";
import { useList } from "../use-list.js";

function TokenRow(p: { t: ApiToken; onChange: () => void; onError: (e: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(p.t.name);
  const revoked = p.t.revokedAt !== undefined;
  return (
    <tr class={revoked ? "revoked" : ""}>
      <td>
        {editing ? (
          <form
            class="inline"
            onSubmit={onSubmitRun(async () => {
              await consoleApi.renameToken({ tokenId: p.t.id, name });
              setEditing(false);
              p.onChange();
            }, p.onError)}
          >
            <input aria-label={`New name for ${p.t.name || p.t.id}`} value={name} onInput={(e) => setName(e.currentTarget.value)} maxLength={100} />
            <button type="submit">Save</button>
            <button type="button" class="ghost" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <>
            <div class="token-name">{p.t.name || "Unnamed token"}</div>
            <div class="muted small">{p.t.device || p.t.source}</div>
          </>
        )}
      </td>
      <td class="muted">{when(p.t.createdAt)}</td>
      <td class="muted">{p.t.lastUsedAt ? ago(p.t.lastUsedAt) : "never"}</td>
      <td>{revoked ? <span class="pill pill-muted">Revoked {ago(p.t.revokedAt)}</span> : <span class="pill pill-ok">Active</span>}</td>
      <td class="row-actions">
        {!revoked && !editing ? (
          <>
            <button type="button" class="ghost" aria-label={`Rename ${p.t.name || p.t.id}`} onClick={() => setEditing(true)}>
              Rename
            </button>
            <button
              type="button"
              class="danger ghost"
              aria-label={`Revoke ${p.t.name || p.t.id}`}
              onClick={async () => {
                if (!confirm(`Revoke “${p.t.name || p.t.id}”? Whatever uses it stops working at its next request.`)) return;
                try {
                  await consoleApi.revokeToken({ tokenId: p.t.id });
                  p.onChange();
                } catch (err) {
                  p.onError(errorText(err));
                }
              }}
            >
              Revoke
            </button>
          </>
        ) : null}
      </td>
    </tr>
  );
}

/** The devices and tokens page. */
export function DevicesPage() {
  const { items: tokens, error, setError, reload: load } = useList(() => consoleApi.listTokens({}).then((r) => r.tokens));
  const [created, setCreated] = useState<string>();
  const active = tokens?.filter((t) => !t.revokedAt) ?? [];
  const revoked = tokens?.filter((t) => t.revokedAt) ?? [];
  return (
    <section>
      <PageHeader title="Devices & tokens" sub="Everything that can act for you. Revoking takes effect on its next request." />
      <div class="card callout">
        <h2>Link a device</h2>
        <p>
          In a terminal run <code>baton login --backend {location.origin}</code>, or open the extension's settings and choose <b>Link to console</b>. You approve the
          link here; the device never sees your password or cookie (PKCE).
        </p>
      </div>
      <ErrorNote error={error} />
      <ShownOnce label="New token (shown once, copy it now)" secret={created} />
      <div class="card">
        <div class="card-head">
          <h2>Active</h2>
          <InlineCreate
            field="New token name"
            placeholder="Token name"
            button="Create token"
            maxLength={100}
            create={async (name) => {
              setCreated((await consoleApi.createToken({ name: name || "API token" })).token);
              void load();
            }}
            onError={setError}
          />
        </div>
        {active.length === 0 ? (
          <Empty title="No active tokens" />
        ) : (
          <table class="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Status</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {active.map((t) => (
                <TokenRow key={t.id} t={t} onChange={() => void load()} onError={setError} />
              ))}
            </tbody>
          </table>
        )}
      </div>
      {revoked.length > 0 ? (
        <details class="card">
          <summary>Revoked ({revoked.length})</summary>
          <table class="table">
            <tbody>
              {revoked.map((t) => (
                <TokenRow key={t.id} t={t} onChange={() => void load()} onError={setError} />
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </section>
  );
}
