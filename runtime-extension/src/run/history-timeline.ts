import type { GetSessionResponse } from "@baton/gen/baton/v1/agent_pb";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { describeCall, type ElementLabel, endedStatus } from "@baton/sdk/client";
import { refLabels, toolByCase } from "@baton/sdk/contract";
import type { TimelineItem } from "./timeline.js";


/**
 * A past session's timeline, rebuilt from the backend's history (the source of truth): the
 * task, the model's text, each call in words (elements named from the snapshots the session
 * itself read), approvals, and the outcome. Used to show a past session and to show what
 * happened before a reopened panel resumed a run.
 */
export function historyTimeline(got: GetSessionResponse): TimelineItem[] {
  const names = new Map<string, ElementLabel>();
  const lookup = (ref: string) => names.get(ref);
  const items: TimelineItem[] = [];
  let first = true;
  for (const h of got.history) {
    const e = h.entry;
    if (e.case === "userMessage") {
      // The client appends where the browser was opened; the user typed the first paragraph.
      const text = first ? (e.value.text.split("\n\n")[0] ?? e.value.text) : e.value.text;
      items.push({ kind: "task", id: `h-user-${items.length}`, text });
      first = false;
    } else if (e.case === "agentMessage") {
      const c = e.value.content;
      if (c.case === "text" && c.value.text.trim()) {
        items.push({ kind: "text", id: `h-text-${e.value.id}`, text: c.value.text, streaming: false });
      } else if (c.case === "functionCall" && c.value.call?.tool.case) {
        const spec = toolByCase(toolCatalog, c.value.call.tool.case);
        // Backend tools (done, memory) are the backend's business: the outcome shows `done`.
        if (!spec || spec.side !== "client") continue;
        const tool = spec.name;
        items.push({ kind: "step", id: c.value.toolcallId, tool, description: describeCall(c.value.call, lookup), state: "running", images: [] });
      }
    } else if (e.case === "toolResult") {
      const r = e.value;
      const at = items.findIndex((i) => i.kind === "step" && i.id === r.toolcallId);
      const step = items[at];
      if (r.outcome.case === "result" && r.outcome.value.tool.case === "takeSnapshot") {
        refLabels(r.outcome.value.tool.value.text, names);
      }
      if (r.outcome.case === "approval" && step?.kind === "step") {
        items.splice(at, 0, {
          kind: "approval",
          id: `h-approval-${r.toolcallId}`,
          description: step.description,
          page: { title: "", url: "" },
          source: "backend",
          state: r.outcome.value.approved ? "approved" : "denied",
        });
        continue;
      }
      if (step?.kind === "step") {
        items[at] = r.outcome.case === "error" ? { ...step, state: "failed", error: r.outcome.value.message } : { ...step, state: "done" };
      }
    }
  }
  const s = got.session;
  const status = s ? endedStatus(s.status) : undefined;
  if (s && status) {
    items.push({ kind: "outcome", id: `h-outcome-${s.id}`, status, text: s.answer || s.reason || (status === "completed" ? "Done." : status) });
  }
  // Calls that never got a result (the run is still going, or was cut off) are not "running" here.
  return items.map((i) => (i.kind === "step" && i.state === "running" ? { ...i, state: "done" } : i));
}
