/**
 * Trust: the approval decisions the user asked to have remembered (revocable here), and the
 * site policy their sessions are held to (their own lists, and the team's, which admins edit).
 */
import type { ApprovalRule, GetSitePolicyResponse, SitePolicy } from "@baton/gen/baton/v1/agent_pb";
import { useEffect, useState } from "preact/hooks";
import { agentApi, errorText } from "../client.js";
import { riskLabel, when } from "../format.js";
import { Empty, ErrorNote, onSubmitRun, PageHeader } from "../ui.js";
import { useList } from "../use-list.js";

function RuleRow(p: { rule: ApprovalRule; onChange: () => void; onError: (e: string) => void }) {
  const r = p.rule;
  return (
    <tr>
      <td class="mono">{r.site}</td>
      <td>{riskLabel[r.risk]}</td>
      <td>{r.allow ? <span class="pill pill-ok">Always allow</span> : <span class="pill pill-bad">Never allow</span>}</td>
      <td class="muted">
        {when(r.createdAt)}
        {r.tool ? <div class="small">on {r.tool}</div> : null}
      </td>
      <td class="muted">{r.expiresAt ? when(r.expiresAt) : "until revoked"}</td>
      <td class="row-actions">
        <button
          type="button"
          class="danger ghost"
          aria-label={`Revoke ${r.allow ? "always" : "never"} for ${riskLabel[r.risk].toLowerCase()} on ${r.site}`}
          onClick={async () => {
            try {
              await agentApi.revokeApprovalRule({ id: r.id });
              p.onChange();
            } catch (err) {
              p.onError(errorText(err));
            }
          }}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

const lines = (l: readonly string[]) => l.join("\n");
const entries = (text: string) =>
  text
    .split(/[\n;,]/)
    .map((e) => e.trim())
    .filter(Boolean);

/** One scope's lists as three fields and a Save button (read-only for a scope the user may not change). */
function PolicyForm(p: { title: string; sub: string; policy: SitePolicy | undefined; editable: boolean; team: boolean; onSaved: (r: GetSitePolicyResponse) => void; onError: (e: string) => void }) {
  const [allowed, setAllowed] = useState("");
  const [blocked, setBlocked] = useState("");
  const [readOnly, setReadOnly] = useState("");
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setAllowed(lines(p.policy?.allowed ?? []));
    setBlocked(lines(p.policy?.blocked ?? []));
    setReadOnly(lines(p.policy?.readOnly ?? []));
  }, [p.policy]);
  const field = (label: string, hint: string, value: string, set: (v: string) => void) => (
    <label class="policy-field">
      <span class="policy-label">{label}</span>
      <span class="muted small">{hint}</span>
      <textarea aria-label={`${p.title}: ${label}`} rows={3} value={value} readOnly={!p.editable} placeholder={p.editable ? "one origin or host a line" : ""} onInput={(e) => (setSaved(false), set(e.currentTarget.value))} />
    </label>
  );
  return (
    <form
      class="card"
      onSubmit={onSubmitRun(async () => {
        const r = await agentApi.setSitePolicy({ team: p.team, policy: { allowed: entries(allowed), blocked: entries(blocked), readOnly: entries(readOnly) } });
        if (r.policies) p.onSaved(r.policies);
        setSaved(true);
      }, p.onError)}
    >
      <div class="card-head">
        <h2>{p.title}</h2>
        {p.editable ? (
          <button type="submit" aria-label={`Save ${p.title.toLowerCase()}`}>
            Save
          </button>
        ) : (
          <span class="muted small">Set by an admin</span>
        )}
      </div>
      <p class="muted small">{p.sub}</p>
      <div class="policy-grid">
        {field("Allowed", "With entries, only these sites load.", allowed, setAllowed)}
        {field("Blocked", "Never loaded: pages, frames, requests, WebSockets.", blocked, setBlocked)}
        {field("Read-only", "Load and can be read; nothing is clicked, typed or submitted.", readOnly, setReadOnly)}
      </div>
      {saved ? (
        <p class="small" role="status">
          Saved. New calls of every session are held to it.
        </p>
      ) : null}
    </form>
  );
}

/** The trust page. */
export function TrustPage() {
  const { items: rules, error, setError, reload } = useList(() => agentApi.listApprovalRules({}).then((r) => r.rules));
  const [policy, setPolicy] = useState<GetSitePolicyResponse>();
  useEffect(() => {
    agentApi.getSitePolicy({}).then(setPolicy, (e: unknown) => setError(errorText(e)));
  }, []);
  return (
    <section>
      <PageHeader title="Trust" sub="What the agent may do without asking you, and where it may go. Every session, device and surface of yours is held to this." />
      <ErrorNote error={error} />
      <div class="card">
        <div class="card-head">
          <h2>Remembered approvals</h2>
        </div>
        <p class="muted small">
          When you answer an approval with “always” or “never” on a site, the answer is kept here and applies to every later call of that kind on that site, until it
          expires or you revoke it.
        </p>
        {rules && rules.length === 0 ? (
          <Empty title="No remembered approvals">Answer an approval with “Always on this site” or “Never on this site” to add one.</Empty>
        ) : (
          <table class="table">
            <thead>
              <tr>
                <th>Site</th>
                <th>Action class</th>
                <th>Decision</th>
                <th>Decided</th>
                <th>Expires</th>
                <th>
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(rules ?? []).map((r) => (
                <RuleRow key={r.id} rule={r} onChange={() => void reload()} onError={setError} />
              ))}
            </tbody>
          </table>
        )}
      </div>
      <PolicyForm
        title="Your site policy"
        sub="Origins (https://shop.example, http://localhost:3000) or hosts (example.com, *.example.com), one a line."
        policy={policy?.user}
        editable
        team={false}
        onSaved={setPolicy}
        onError={setError}
      />
      <PolicyForm
        title="Team site policy"
        sub="Holds every user's sessions on this backend, together with each user's own: blocked and read-only sites add up, and only sites both allow lists allow load."
        policy={policy?.team}
        editable={policy?.canEditTeam ?? false}
        team
        onSaved={setPolicy}
        onError={setError}
      />
    </section>
  );
}
