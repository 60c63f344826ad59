/**
 * A call awaiting the user's approval, answered from the console: once, or remembered for
 * this action class on this site (always or never), until an expiry the user picks.
 */
import { type AgentMessage, ApprovalScope } from "@baton/gen/baton/v1/agent_pb";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describeCall, type ElementLabel } from "@baton/sdk/client";
import { defaultRememberMs, rememberDurations } from "@baton/sdk/policy";
import { useState } from "preact/hooks";
import { agentApi, errorText } from "../client.js";
import { riskLabel } from "../format.js";


/** The card for one pending call; `onError` gets a decision that failed (it was decided elsewhere, say). */
export function ApprovalCard(p: { sessionId: string; message: AgentMessage; labels: Map<string, ElementLabel>; onError: (e: string) => void }) {
  const [keep, setKeep] = useState(defaultRememberMs);
  const [busy, setBusy] = useState(false);
  if (p.message.content.case !== "functionCall") return null;
  const fc = p.message.content.value;
  const what = fc.call ? describeCall(fc.call, (ref) => p.labels.get(ref)) : fc.extension?.name || "a call";
  const decide = async (approved: boolean, remember: boolean) => {
    setBusy(true);
    try {
      await agentApi.decideApproval({
        sessionId: p.sessionId,
        toolcallId: fc.toolcallId,
        approval: {
          approved,
          ...(approved ? {} : { reason: remember ? `The user never allows this on ${fc.site}.` : "The user denied this action." }),
          scope: remember ? ApprovalScope.SITE : ApprovalScope.ONCE,
          ...(remember && keep > 0 ? { expiresAt: timestampFromMs(Date.now() + keep) } : {}),
        },
      });
    } catch (e) {
      p.onError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const cls = riskLabel[fc.risk].toLowerCase();
  return (
    <div class="card approval" role="group" aria-label={`Approval: ${what}`}>
      <h2>Approve this action?</h2>
      <p class="approval-what">{what}</p>
      <p class="muted small">
        {cls}
        {fc.site ? (
          <>
            {" "}
            on <span class="mono">{fc.site}</span>
          </>
        ) : null}
      </p>
      <div class="approval-actions">
        <button type="button" disabled={busy} onClick={() => void decide(true, false)}>
          Allow once
        </button>
        <button type="button" class="ghost" disabled={busy} onClick={() => void decide(false, false)}>
          Deny
        </button>
      </div>
      {fc.site ? (
        <div class="approval-actions">
          <button type="button" class="ghost" disabled={busy} onClick={() => void decide(true, true)}>
            Always on this site
          </button>
          <button type="button" class="ghost danger" disabled={busy} onClick={() => void decide(false, true)}>
            Never on this site
          </button>
          <select aria-label="Remember the decision" value={String(keep)} onChange={(e) => setKeep(Number(e.currentTarget.value))}>
            {rememberDurations.map(([label, ms]) => (
              <option value={String(ms)}>{label}</option>
            ))}
          </select>
        </div>
      ) : null}
    </div>
  );
}
