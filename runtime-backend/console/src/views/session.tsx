/** One session, live: its timeline (messages, tool calls with evidence and screenshots), its trace, and stop. */
import type { AgentMessage, HistoryEntry, LogEntry, Progress, Session, StepTrace, ToolcallResult } from "@baton/gen/baton/v1/agent_pb";
import { MessageStatus, Phase, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import type { Image, ToolCall } from "@baton/gen/baton/v1/tools_pb";
import { useEffect, useState } from "preact/hooks";
import { describeCall, type ElementLabel } from "@baton/sdk/client";
import { refLabels } from "@baton/sdk/contract";
import { agentApi, consoleApi, errorText } from "../client.js";
import { count, duration, failureOf, isActive, money, outcomeOf, when } from "../format.js";
import { ErrorNote, PageHeader, Stat, StatusPill } from "../ui.js";
import { ApprovalCard } from "./approval-card.js";

/** Everything the watch has said so far. */
interface Watched {
  session?: Session;
  history: HistoryEntry[];
  traces: Map<number, StepTrace>;
  pending: AgentMessage[];
  logs: LogEntry[];
  progress?: Progress;
  typing: string;
}


/** The images in a tool result (a screenshot, a labelled snapshot). */
function imagesOf(r: ToolcallResult): Image[] {
  if (r.outcome.case !== "result") return [];
  const v = r.outcome.value.tool.value as Record<string, unknown> | undefined;
  if (!v) return [];
  return Object.values(v).filter((x): x is Image => (x as { $typeName?: string } | undefined)?.$typeName === "baton.v1.Image");
}

/** What a tool result says happened, in a line. */
function evidenceOf(r: ToolcallResult): string {
  switch (r.outcome.case) {
    case "error":
      return r.outcome.value.message;
    case "approval":
      return r.outcome.value.approved ? "Approved" : `Denied${r.outcome.value.reason ? `: ${r.outcome.value.reason}` : ""}`;
    case "extensionResult":
      return r.outcome.value.resultJson.slice(0, 200);
    case "result": {
      const v = r.outcome.value.tool.value as { evidence?: { url: string; title: string; navigated: boolean; notes: string[] }; url?: string; title?: string; answer?: string; records?: unknown[] } | undefined;
      const e = v?.evidence;
      if (e) return [e.navigated ? `→ ${e.title || e.url}` : e.title ? `on “${e.title}”` : "", ...e.notes].filter(Boolean).join(" · ");
      if (v?.answer) return v.answer;
      if (v?.title || v?.url) return `${v.title ?? ""} ${v.url ? `(${v.url})` : ""}`.trim();
      if (v?.records) return `${v.records.length} record(s)`;
      if (r.outcome.value.tool.case === "saveMemory") return "Saved";
      return imagesOf(r).length > 0 ? "" : "Done";
    }
    default:
      return "";
  }
}

/** A screenshot a tool returned: inline bytes, or stored once on the server ("screenshot:<id>", read with GetScreenshot). */
function Screenshot(p: { image: Image; sessionId: string }) {
  const [src, setSrc] = useState("");
  useEffect(() => {
    let url = "";
    let live = true;
    const show = (img: Image) => {
      if (!live || img.data.length === 0) return;
      url = URL.createObjectURL(new Blob([img.data as Uint8Array<ArrayBuffer>], { type: img.mimeType || "image/jpeg" }));
      setSrc(url);
    };
    if (p.image.data.length > 0) show(p.image);
    else if (p.image.url.startsWith("screenshot:")) {
      agentApi.getScreenshot({ sessionId: p.sessionId, screenshotId: p.image.url.slice("screenshot:".length) }).then(
        (r) => r.image && show(r.image),
        () => undefined,
      );
    }
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [p.image, p.sessionId]);
  return src ? (
    <a href={src} target="_blank" rel="noreferrer" class="shot">
      <img src={src} alt="Screenshot of the page" loading="lazy" />
    </a>
  ) : null;
}

function ToolCard(p: { call: ToolCall | undefined; name: string; result: ToolcallResult | undefined; pending: boolean; labels: Map<string, ElementLabel>; sessionId: string }) {
  const title = p.call ? describeCall(p.call, (ref) => p.labels.get(ref)) : `Running ${p.name}`;
  const failed = p.result?.outcome.case === "error";
  const state = p.result ? (failed ? "failed" : "done") : p.pending ? "waiting" : "running";
  return (
    <div class={`tool tool-${state}`}>
      <div class="tool-head">
        <span class="tool-icon" aria-hidden="true">
          {failed ? "!" : p.result ? "✓" : "…"}
        </span>
        <span class="tool-title">{title}</span>
        <span class="tool-name mono">{p.name}</span>
      </div>
      {p.result && evidenceOf(p.result) ? <div class="tool-evidence">{evidenceOf(p.result)}</div> : null}
      {p.result ? imagesOf(p.result).map((img) => <Screenshot image={img} sessionId={p.sessionId} />) : null}
    </div>
  );
}

/** Roles and names of the refs of every snapshot in the history, the latest winning. */
function snapshotLabels(history: HistoryEntry[]): Map<string, ElementLabel> {
  const labels = new Map<string, ElementLabel>();
  for (const h of history) {
    const r = h.entry.case === "toolResult" ? h.entry.value : undefined;
    if (r?.outcome.case === "result" && r.outcome.value.tool.case === "takeSnapshot") refLabels(r.outcome.value.tool.value.text, labels);
  }
  return labels;
}

function Timeline(p: { w: Watched; sessionId: string }) {
  const results = new Map<string, ToolcallResult>();
  for (const h of p.w.history) if (h.entry.case === "toolResult") results.set(h.entry.value.toolcallId, h.entry.value);
  const pending = new Set(p.w.pending.map((m) => (m.content.case === "functionCall" ? m.content.value.toolcallId : "")));
  const labels = new Map<string, ElementLabel>();
  const items = [];
  let lastStep = -1;
  for (const h of p.w.history) {
    if (h.step !== lastStep && h.step > 0 && h.entry.case !== "toolResult") {
      lastStep = h.step;
      items.push(
        <div class="step-mark" id={`step-${h.step}`}>
          Step {h.step}
        </div>,
      );
    }
    const e = h.entry;
    if (e.case === "userMessage") {
      items.push(
        <div class="msg msg-user">
          <div class="who">You</div>
          <div>{e.value.text}</div>
        </div>,
      );
    } else if (e.case === "toolResult") {
      const r = e.value;
      if (r.outcome.case === "result" && r.outcome.value.tool.case === "takeSnapshot") refLabels(r.outcome.value.tool.value.text, labels);
    } else if (e.case === "agentMessage") {
      const m = e.value;
      const c = m.content;
      if (c.case === "text" && c.value.text.trim()) {
        items.push(
          <div class="msg msg-agent">
            <div class="who">Agent</div>
            <div>{c.value.text}</div>
          </div>,
        );
      } else if (c.case === "reasoning" && c.value.text.trim()) {
        items.push(<div class="msg msg-reasoning">{c.value.text}</div>);
      } else if (c.case === "functionCall") {
        const fc = c.value;
        // The snake_case name the model called, as the trace lists it.
        const name = fc.call?.tool.case?.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) ?? fc.extension?.name ?? "tool";
        items.push(<ToolCard call={fc.call} name={name} result={results.get(fc.toolcallId)} pending={pending.has(fc.toolcallId)} labels={new Map(labels)} sessionId={p.sessionId} />);
      }
    }
  }
  return <div class="timeline">{items}</div>;
}

function TraceTable(p: { traces: StepTrace[] }) {
  if (p.traces.length === 0) return <p class="muted">No model calls yet.</p>;
  return (
    <table class="table compact">
      <caption class="sr-only">Model calls per step</caption>
      <thead>
        <tr>
          <th class="num">Step</th>
          <th class="num">Latency</th>
          <th class="num">Tokens in/out</th>
          <th class="num">Cost</th>
          <th>Tools</th>
        </tr>
      </thead>
      <tbody>
        {p.traces.map((t) => (
          <tr>
            <td class="num">
              <a href={`#step-${t.step}`}>{t.step}</a>
            </td>
            <td class="num">{duration(t.latencyMs)}</td>
            <td class="num">
              {count(t.usage?.inputTokens ?? 0n)}/{count(t.usage?.outputTokens ?? 0n)}
            </td>
            <td class="num">{money(t.usage?.costUsd ?? 0)}</td>
            <td class="mono small">
              {t.toolCalls.join(", ")}
              {t.errors.length > 0 ? <span class="bad"> · {t.errors.length} error(s)</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the agent is doing right now, as the watch reports it. */
function LiveLine(p: { w: Watched }) {
  const s = p.w.session;
  // A call awaiting approval has its own card; the session waits for the user, not the browser.
  if (!s || !isActive(s.status) || s.status === SessionStatus.AWAITING_APPROVAL) return null;
  const pr = p.w.progress;
  const text = pr?.phase === Phase.TAKING_ACTION ? pr.detail || pr.tool : pr?.phase === Phase.THINKING ? "Thinking…" : "Waiting for the browser…";
  return (
    <div class="live" role="status" aria-live="polite">
      <span class="pulse" aria-hidden="true" />
      {text}
      {p.w.typing ? <span class="typing"> {p.w.typing}</span> : null}
    </div>
  );
}

/** The session page. */
export function SessionPage(p: { id: string }) {
  const [w, setW] = useState<Watched>({ history: [], traces: new Map(), pending: [], logs: [], typing: "" });
  const [error, setError] = useState<string>();
  const [stopping, setStopping] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    setW({ history: [], traces: new Map(), pending: [], logs: [], typing: "" });
    (async () => {
      for await (const m of consoleApi.watchSession({ sessionId: p.id }, { signal: abort.signal })) {
        setW((prev) => {
          const next: Watched = { ...prev };
          if (m.session) {
            next.session = m.session;
            next.pending = m.pendingCalls;
            next.typing = "";
          }
          if (m.history.length) next.history = [...prev.history, ...m.history];
          if (m.traces.length) {
            next.traces = new Map(prev.traces);
            for (const t of m.traces) next.traces.set(t.step, t);
          }
          if (m.logs.length) next.logs = [...prev.logs, ...m.logs];
          if (m.progress) next.progress = m.progress;
          if (m.textDelta) next.typing = (prev.typing + m.textDelta).slice(-300);
          return next;
        });
      }
    })().catch((e) => {
      if (!abort.signal.aborted) setError(errorText(e));
    });
    return () => abort.abort();
  }, [p.id]);

  const s = w.session;
  const traces = [...w.traces.values()].sort((a, b) => a.step - b.step);
  const latency = traces.reduce((a, t) => a + t.latencyMs, 0);
  return (
    <section>
      <p class="crumbs">
        <a href="/sessions">Sessions</a> / <span class="mono">{p.id}</span>
      </p>
      <ErrorNote error={error} />
      {s ? (
        <>
          <PageHeader title={s.task || s.goal || "Untitled session"} sub={<StatusPill status={outcomeOf(s)} />}>
            {isActive(s.status) ? (
              <button
                type="button"
                class="danger"
                disabled={stopping}
                onClick={async () => {
                  setStopping(true);
                  try {
                    await agentApi.stop({ sessionId: s.id, reason: "stopped from the console" });
                  } catch (e) {
                    setError(errorText(e));
                  } finally {
                    setStopping(false);
                  }
                }}
              >
                {stopping ? "Stopping…" : "Stop session"}
              </button>
            ) : null}
          </PageHeader>
          {s.verdict && !s.verdict.passed ? (
            <p class="banner banner-bad" role="status">
              {failureOf(s)}
            </p>
          ) : null}
          {s.reason ? (
            <p class={`banner ${s.status === SessionStatus.FAILED ? "banner-bad" : ""}`} role="status">
              {s.reason}
            </p>
          ) : null}
          {s.answer ? (
            <p class={`banner ${outcomeOf(s) === SessionStatus.FAILED ? "" : "banner-ok"}`}>
              {s.verdict && !s.verdict.passed ? "The agent's answer: " : ""}
              {s.answer}
            </p>
          ) : null}
          <div class="stats">
            <Stat label="Model" value={<span class="mono">{s.model}</span>} />
            <Stat label="Steps" value={`${s.step} / ${s.maxSteps}`} />
            <Stat
              label="Tokens"
              value={count((s.usage?.inputTokens ?? 0n) + (s.usage?.outputTokens ?? 0n))}
              hint={`${count(s.usage?.inputTokens ?? 0n)} in · ${count(s.usage?.outputTokens ?? 0n)} out${s.budget?.tokens ? ` · of ${count(s.budget.tokens)} budget` : ""}`}
            />
            <Stat label="Cost" value={money(s.usage?.costUsd ?? 0)} hint={s.budget?.costUsd ? `of ${money(s.budget.costUsd)} budget` : undefined} />
            {s.budget?.seconds ? <Stat label="Time budget" value={`${Math.round(s.budget.seconds / 60)} min`} hint={`started ${when(s.createdAt)}`} /> : null}
            <Stat label="Model time" value={duration(latency)} />
            <Stat label="Started" value={when(s.createdAt)} hint={s.playbook ? `playbook ${s.playbook}` : undefined} />
          </div>
          <LiveLine w={w} />
          {w.pending
            .filter((m) => m.status === MessageStatus.AWAITING_APPROVAL)
            .map((m) => (
              <ApprovalCard key={m.id} sessionId={s.id} message={m} labels={snapshotLabels(w.history)} onError={setError} />
            ))}
          <div class="columns">
            <div class="card grow">
              <h2>Timeline</h2>
              {s.task && s.goal && s.task !== s.goal ? <p class="muted small">Goal, as the model put it: {s.goal}</p> : null}
              <Timeline w={w} sessionId={p.id} />
            </div>
            <div class="card side">
              <h2>Trace</h2>
              <TraceTable traces={traces} />
              {w.logs.length > 0 ? (
                <>
                  <h2>Client log</h2>
                  <ul class="logs">
                    {w.logs.slice(-50).map((l) => (
                      <li class={`log-${l.level}`}>
                        <span class="mono small">{l.tool || `step ${l.step}`}</span> {l.message}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
          </div>
        </>
      ) : error ? null : (
        <div class="loading" aria-busy="true" />
      )}
    </section>
  );
}
