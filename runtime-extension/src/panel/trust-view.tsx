import type { ApprovalRule } from "@baton/gen/baton/v1/agent_pb";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { type ToolRisk, toolRiskOf } from "@baton/sdk/contract";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Settings } from "../settings.js";
import { panelServices } from "./panel-services.js";

/** An action class, as the panel names it. */
export const actionClassLabel: Record<ToolRisk, string> = {
  read_only: "Reading",
  mutating: "Change to a page (typing, clicking)",
  irreversible: "Irreversible action (paying, sending, deleting)",
};

const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * Settings' Trust section: the approvals the user asked to have remembered (site, action class,
 * always or never, until when), each with Revoke. They live where the run's loop keeps them —
 * the backend (connected mode) or the panel's own store (standalone) — and are read and revoked
 * there with ListApprovalRules / RevokeApprovalRule, so this list and the console's are one.
 */
export function TrustSection({ settings }: { settings: Settings }) {
  const api = useMemo(() => panelServices.client(settings), [settings]);
  const [rules, setRules] = useState<readonly ApprovalRule[] | undefined>();
  const [error, setError] = useState("");
  const reload = () =>
    api.listApprovalRules({}).then(
      (r) => (setRules(r.rules), setError("")),
      (e: unknown) => setError(`Could not read the remembered approvals: ${e instanceof Error ? e.message : String(e)}`),
    );
  useEffect(() => {
    void reload();
  }, [settings.backendUrl, settings.token]);
  return (
    <section class="settings trust" aria-label="Remembered approvals">
      <fieldset>
        <legend>Remembered approvals</legend>
        <p class="help">What you answered "always" or "never on this site" on an approval card. Each holds for one kind of action on one site until it expires or you revoke it.</p>
        {error ? (
          <p class="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {rules?.length ? (
          <ul class="secret-list rule-list">
            {rules.map((r) => {
              const risk = toolRiskOf(r.risk);
              return (
                <li key={r.id} data-rule={r.id}>
                  <span>
                    <strong class={r.allow ? "rule-always" : "rule-never"}>{r.allow ? "Always" : "Never"}</strong> <code>{r.site}</code>
                    <small>
                      {risk ? actionClassLabel[risk] : "Any action"} · {r.expiresAt ? `until ${when(timestampMs(r.expiresAt))}` : "until revoked"}
                    </small>
                  </span>
                  <button
                    type="button"
                    class="btn"
                    aria-label={`Revoke ${r.allow ? "always" : "never"} on ${r.site}`}
                    onClick={() =>
                      void api.revokeApprovalRule({ id: r.id }).then(reload, (e: unknown) => setError(`Could not revoke it: ${e instanceof Error ? e.message : String(e)}`))
                    }
                  >
                    Revoke
                  </button>
                </li>
              );
            })}
          </ul>
        ) : rules ? (
          <p class="help">None yet.</p>
        ) : null}
      </fieldset>
    </section>
  );
}
