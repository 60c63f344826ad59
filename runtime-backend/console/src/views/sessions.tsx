/** The user's sessions: a filterable list, newest first, refreshed while any runs. */
import { type Session, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { useEffect, useState } from "preact/hooks";
import { consoleApi, errorText } from "../client.js";
import { ago, count, failureOf, isActive, money, outcomeOf } from "../format.js";
import { markInteractive } from "../ready.js";
import { Empty, ErrorNote, PageHeader, StatusPill } from "../ui.js";

const filters: [string, SessionStatus[]][] = [
  ["All", []],
  ["Active", [SessionStatus.RUNNING, SessionStatus.AWAITING_TOOLS, SessionStatus.AWAITING_APPROVAL]],
  ["Completed", [SessionStatus.COMPLETED]],
  ["Failed", [SessionStatus.FAILED]],
  ["Stopped", [SessionStatus.STOPPED]],
  ["Budget reached", [SessionStatus.BUDGET_EXHAUSTED]],
  ["Idle", [SessionStatus.IDLE]],
];

const firstPage = { statuses: [], query: "", model: "", pageToken: "", limit: 50 };
let early: ReturnType<typeof consoleApi.listSessions> | undefined;

/**
 * Asks for the default first page of the list at once, while the app checks who is signed in,
 * so a load of the landing page waits for one round trip rather than two. Signed out, the
 * answer is an error that nobody reads.
 */
export function prefetchSessions(): void {
  early = consoleApi.listSessions(firstPage);
  early.catch(() => undefined);
}

/** The sessions list. */
export function SessionsPage() {
  const [filter, setFilter] = useState(0);
  const [query, setQuery] = useState("");
  const [model, setModel] = useState("");
  const [sessions, setSessions] = useState<Session[]>();
  const [models, setModels] = useState<string[]>([]);
  const [next, setNext] = useState("");
  const [error, setError] = useState<string>();

  const load = async (pageToken = "") => {
    try {
      const prefetched = early && filter === 0 && !query && !model && !pageToken ? early : undefined;
      early = undefined;
      const r = await (prefetched ?? consoleApi.listSessions({ statuses: filters[filter]?.[1] ?? [], query, model, pageToken, limit: 50 }));
      setSessions((prev) => (pageToken ? [...(prev ?? []), ...r.sessions] : r.sessions));
      setModels(r.models);
      setNext(r.nextPageToken);
      setError(undefined);
    } catch (e) {
      setError(errorText(e));
    }
  };
  useEffect(() => {
    const t = setTimeout(() => void load(), query ? 200 : 0);
    return () => clearTimeout(t);
  }, [filter, query, model]);
  // While something runs, the list keeps itself current.
  const live = sessions?.some((s) => isActive(s.status)) ?? false;
  useEffect(() => {
    if (!live) return;
    const t = setInterval(() => void load(), 2000);
    return () => clearInterval(t);
  }, [live, filter, query, model]);
  // The landing page has rendered its first list (effects run after the render is painted).
  useEffect(() => {
    if (sessions || error) markInteractive();
  }, [sessions, error]);

  return (
    <section>
      <PageHeader title="Sessions" sub="Every task your devices and tokens ran, newest first." />
      <div class="toolbar">
        <div class="segmented" role="group" aria-label="Status">
          {filters.map(([label], i) => (
            <button type="button" aria-pressed={filter === i} onClick={() => setFilter(i)}>
              {label}
            </button>
          ))}
        </div>
        <input type="search" aria-label="Search tasks" placeholder="Search tasks…" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        <select aria-label="Model" value={model} onChange={(e) => setModel(e.currentTarget.value)}>
          <option value="">All models</option>
          {models.map((m) => (
            <option value={m}>{m}</option>
          ))}
        </select>
      </div>
      <ErrorNote error={error} />
      {sessions && sessions.length === 0 ? (
        filter === 0 && !query && !model ? (
          <Empty title="No sessions yet">Run a task from the extension, `baton run`, or the SDK, and it appears here.</Empty>
        ) : (
          <Empty title={`No ${filter === 0 ? "" : `${filters[filter]?.[0].toLowerCase()} `}sessions${query ? ` matching “${query}”` : ""}${model ? ` on ${model}` : ""}`}>
            Other sessions are under All{query || model ? ", or with the search and the model cleared" : ""}.
          </Empty>
        )
      ) : (
        <div class="card">
          <table class="table">
            <thead>
              <tr>
                <th>Status</th>
                <th>Task</th>
                <th>Model</th>
                <th class="num">Steps</th>
                <th class="num">Tokens</th>
                <th class="num">Cost</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {(sessions ?? []).map((s) => (
                <tr>
                  <td>
                    <StatusPill status={outcomeOf(s)} />
                  </td>
                  <td class="task">
                    <a href={`/sessions/${s.id}`}>{s.task || s.goal || s.id}</a>
                    {failureOf(s) ? (
                      <div class="reason" title={failureOf(s)}>
                        {failureOf(s)}
                      </div>
                    ) : null}
                  </td>
                  <td class="mono">{s.model}</td>
                  <td class="num">
                    {s.step}
                    <span class="muted">/{s.maxSteps}</span>
                  </td>
                  <td class="num">{count((s.usage?.inputTokens ?? 0n) + (s.usage?.outputTokens ?? 0n))}</td>
                  <td class="num">{money(s.usage?.costUsd ?? 0)}</td>
                  <td class="muted">{ago(s.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {next ? (
            <button type="button" class="more" onClick={() => void load(next)}>
              Show more
            </button>
          ) : null}
        </div>
      )}
    </section>
  );
}
