import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { SessionStatus, type StepTrace } from "@baton/gen/baton/v1/agent_pb";
import { type ListSessionsRequest, type ListSessionsResponse, type WatchSessionResponse } from "@baton/gen/baton/v1/console_pb";
import { ListSessionsResponseSchema, WatchSessionResponseSchema } from "@baton/gen/baton/v1/descriptors";
import { clientMessages } from "../loop/call-order.js";
import type { SessionSignal } from "../loop/session-events.js";
import { progressOf } from "../loop/step-progress.js";
import { readLogs } from "../store/logs.js";
import { callsOfStep } from "../store/records.js";
import { historyFrom, listSessions, sessionModels, sessionSummary } from "../store/session-list.js";
import { readTraces } from "../store/traces.js";
import type { ConsoleDeps } from "./deps.js";

/** A page token: the last session's creation time (ms) and id. */
function readPageToken(token: string): { createdAt: Date; id: string } | undefined {
  if (!token) return undefined;
  const m = /^(\d{1,15})\.([\w-]{1,64})$/.exec(token);
  if (!m) throw new ConnectError("page_token is not one ListSessions gave", Code.InvalidArgument);
  return { createdAt: new Date(Number(m[1])), id: m[2] ?? "" };
}

/** The user's sessions, newest first, filtered and paged. */
export async function listUserSessions(deps: ConsoleDeps, userId: string, req: ListSessionsRequest): Promise<ListSessionsResponse> {
  const limit = req.limit || 50;
  const [rows, models] = await Promise.all([
    listSessions(deps.db, userId, { statuses: req.statuses, query: req.query.trim(), model: req.model, limit, before: readPageToken(req.pageToken) }),
    sessionModels(deps.db, userId),
  ]);
  const sessions = rows.slice(0, limit);
  const last = sessions.at(-1);
  const more = rows.length > limit && last;
  for (const s of sessions) if (deps.agent.isRunning(s.id)) s.status = SessionStatus.RUNNING;
  return create(ListSessionsResponseSchema, {
    sessions,
    nextPageToken: more ? `${Number(last.createdAt?.seconds ?? 0n) * 1000 + Math.floor((last.createdAt?.nanos ?? 0) / 1e6)}.${last.id}` : "",
    models,
  });
}

/** How often a watched session is read again when nothing in this process says it changed (a step on another replica). */
const pollMs = 1_000;

/**
 * A session as it changes: everything first, then what each change added, until `signal`
 * aborts. Progress of a step this process runs arrives as it happens and makes the store be
 * read again at once; otherwise the store is read every second.
 */
export async function* watchSession(deps: ConsoleDeps, userId: string, sessionId: string, signal: AbortSignal): AsyncGenerator<WatchSessionResponse> {
  const first = await sessionSummary(deps.db, sessionId);
  if (!first) throw new ConnectError(`session ${sessionId.slice(0, 64)} not found`, Code.NotFound);
  if (first.userId !== userId) throw new ConnectError(`session ${sessionId} belongs to another user`, Code.PermissionDenied);

  const queue: SessionSignal[] = [];
  let wake: (() => void) | undefined;
  const unsubscribe = deps.agent.events.subscribe(sessionId, (e) => {
    queue.push(e);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener("abort", onAbort);
  let sentHistory = 0;
  let sentLogs = 0;
  let lastUpdate = "";
  let lastTraces: StepTrace[] = [];
  try {
    for (let read = true; !signal.aborted; ) {
      if (read) {
        const now = await sessionSummary(deps.db, sessionId);
        if (!now) return;
        if (deps.agent.isRunning(sessionId)) now.session.status = SessionStatus.RUNNING;
        const stamp = `${now.session.status}/${now.historyLen}/${now.session.updatedAt?.seconds}.${now.session.updatedAt?.nanos}`;
        if (stamp !== lastUpdate || sentHistory === 0) {
          lastUpdate = stamp;
          const [history, traces, logs, calls] = await Promise.all([
            historyFrom(deps.db, sessionId, sentHistory),
            readTraces(deps.db, sessionId),
            readLogs(deps.db, sessionId),
            callsOfStep(deps.db, sessionId, now.session.step),
          ]);
          sentHistory += history.length;
          // A trace is new, or its step was retried and added to it.
          const changed = traces.filter((t) => {
            const before = lastTraces.find((x) => x.step === t.step);
            return !before || before.latencyMs !== t.latencyMs || before.toolCalls.length !== t.toolCalls.length;
          });
          lastTraces = traces;
          yield create(WatchSessionResponseSchema, { session: now.session, history, traces: changed, pendingCalls: clientMessages(calls), logs: logs.slice(sentLogs) });
          sentLogs = logs.length;
        }
      }
      read = false;
      while (queue.length > 0) {
        const e = queue.shift() as SessionSignal;
        if (e.kind === "changed" || e.kind === "thinking") read = true;
        const live = liveOf(e);
        if (live) yield live;
      }
      if (read || signal.aborted) continue;
      await new Promise<void>((r) => {
        const timer = setTimeout(r, pollMs);
        wake = () => {
          clearTimeout(timer);
          r();
        };
      });
      wake = undefined;
      read = queue.length === 0;
    }
  } finally {
    unsubscribe();
    signal.removeEventListener("abort", onAbort);
  }
}

/** A step's progress as a watch message, as StreamStep reports it (no session: the watcher keeps the one it has). */
function liveOf(e: SessionSignal): WatchSessionResponse | undefined {
  if (e.kind === "changed") return undefined;
  const { event } = progressOf(e);
  if (event.case === "progress") return create(WatchSessionResponseSchema, { progress: event.value });
  if (event.case === "textDelta") return create(WatchSessionResponseSchema, { textDelta: event.value });
  return undefined;
}
