/** Users (admins): accounts, today's usage, quotas, new users and sign-in links. */
import type { Account, UserSummary } from "@baton/gen/baton/v1/console_pb";
import { useState } from "preact/hooks";
import { consoleApi, errorText } from "../client.js";
import { money } from "../format.js";
import { ErrorNote, InlineCreate, onSubmitRun, PageHeader, ShownOnce } from "../ui.js";
import { useList } from "../use-list.js";

function QuotaForm(p: { u: UserSummary; onSaved: () => void; onError: (e: string) => void }) {
  const [cost, setCost] = useState(String(p.u.quota?.dailyCostUsd || ""));
  const [steps, setSteps] = useState(String(p.u.quota?.dailySteps || ""));
  const who = p.u.account?.name ?? "";
  return (
    <form
      class="inline"
      onSubmit={onSubmitRun(async () => {
        await consoleApi.setQuota({ userId: p.u.account?.userId ?? "", quota: { dailyCostUsd: Number(cost) || 0, dailySteps: Number(steps) || 0 } });
        p.onSaved();
      }, p.onError)}
    >
      <input aria-label={`Daily cost quota for ${who} (USD)`} class="short" inputMode="decimal" placeholder="$ / day" value={cost} onInput={(e) => setCost(e.currentTarget.value)} />
      <input aria-label={`Daily step quota for ${who}`} class="short" inputMode="numeric" placeholder="steps / day" value={steps} onInput={(e) => setSteps(e.currentTarget.value)} />
      <button type="submit" aria-label={`Save quota for ${who}`}>
        Save
      </button>
    </form>
  );
}

/** The users page. */
export function UsersPage(p: { account: Account }) {
  const { items: users, error, setError, reload: load } = useList(() => consoleApi.listUsers({}).then((r) => r.users));
  const [link, setLink] = useState<string>();
  if (!p.account.admin) return <ErrorNote error="Only an admin can see this page." />;
  return (
    <section>
      <PageHeader title="Users" sub="Accounts on this server, today's use and their daily quotas (0 or empty: no limit)." />
      <ErrorNote error={error} />
      <ShownOnce label="One-time sign-in link (give it to them)" secret={link} />
      <div class="card">
        <div class="card-head">
          <h2>Accounts</h2>
          <InlineCreate
            field="New user id"
            placeholder="new user id"
            button="Add user"
            create={async (id) => {
              setLink((await consoleApi.createUser({ userId: id.trim() })).signInUrl);
              void load();
            }}
            onError={setError}
          />
        </div>
        <table class="table">
          <thead>
            <tr>
              <th>User</th>
              <th class="num">Steps today</th>
              <th class="num">Cost today</th>
              <th>Daily quota</th>
              <th>
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(users ?? []).map((u) => (
              <tr>
                <td>
                  <b>{u.account?.name}</b> {u.account?.admin ? <span class="pill pill-muted">admin</span> : null}
                  <div class="muted small mono">{u.account?.userId}</div>
                </td>
                <td class="num">{u.stepsToday}</td>
                <td class="num">{money(u.costTodayUsd)}</td>
                <td>
                  <QuotaForm u={u} onSaved={() => void load()} onError={setError} />
                </td>
                <td>
                  <button
                    type="button"
                    class="ghost"
                    aria-label={`New sign-in link for ${u.account?.name}`}
                    onClick={async () => {
                      try {
                        setLink((await consoleApi.createSignInLink({ userId: u.account?.userId ?? "" })).signInUrl);
                      } catch (e) {
                        setError(errorText(e));
                      }
                    }}
                  >
                    Sign-in link
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
