import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { type ApprovalDecision, type ApprovalRequest, type BatonClient, type RunContext, runTask, type Secret, withSecrets } from "@baton/sdk/client";
import {
  type HealRequest,
  type HealResult,
  type PageProbe,
  type ReplayEvent,
  type ReplayOutcome,
  replayScript,
  type ScriptExpectations,
  type ScriptFile,
} from "@baton/sdk/script";
import type { Progress } from "./progress.js";

/** Everything a replay with healing runs on. */
export interface ReplayRun {
  readonly script: ScriptFile;
  readonly goal: string;
  /** The client's handlers (the engine's and ask_user, maybe recording), without a secrets layer. */
  readonly handlers: ClientToolHandlers<RunContext>;
  readonly secrets: readonly Secret[];
  readonly probe: PageProbe;
  readonly progress: Progress;
  readonly signal: AbortSignal;
  /** The backend a heal runs on: started on the first heal only. */
  readonly backend: () => Promise<BatonClient>;
  /** The model that heals; undefined with no model configured (a remote backend uses its own). */
  readonly model: string | undefined;
  /** Why there is no model, when there is none and the backend is this process's own. */
  readonly noModel: string | undefined;
  readonly maxSteps?: number | undefined;
  readonly onApproval: (r: ApprovalRequest) => Promise<ApprovalDecision>;
}

function expectationWords(e: ScriptExpectations | undefined): string[] {
  if (!e) return [];
  return [
    ...(e.url ? [`the page's URL matches /${e.url}/`] : []),
    ...(e.text ?? []).map((t) => `the page shows ${JSON.stringify(t)}`),
    ...(e.js ?? []).map((j) => `\`${j}\` is true in the page`),
  ];
}

/** The message a model heals a step with: the goal, what was done, the failed step and why, what must not be done yet. */
export function healTask(r: HealRequest): string {
  const lines = [
    "You are repairing one step of a recorded browser task that is being replayed without a model.",
    `The whole task: ${r.goal}`,
    r.done.length ? `Replayed so far:\n${r.done.map((d, i) => `${i + 1}. ${d}`).join("\n")}` : "Nothing has been replayed yet.",
    `The step to do now (step ${r.turn} of ${r.turns}), as recorded: ${r.failed}`,
    `It could not be replayed: ${r.reason}`,
  ];
  const holds = expectationWords(r.expect);
  if (holds.length) lines.push(`When it is done: ${holds.join("; ")}.`);
  lines.push(
    "Do only this step, on the page as it is now: take a snapshot first, act, then call done with one short line saying what you did.",
    r.next.length ? `Do not do the later steps; the replay does them:\n${r.next.map((d) => `- ${d}`).join("\n")}` : "It is the last step.",
  );
  return lines.join("\n\n");
}

/** A replay's outcome, and the backend sessions its heals ran in (none when nothing needed healing). */
export interface HealedReplay extends ReplayOutcome {
  readonly healSessions: readonly string[];
}

/**
 * `baton run --script FILE --heal`: replays the script here, through the engine, with no model
 * and no backend. A step that cannot be replayed goes to a model (a session on the run's
 * backend, started then) with the goal and the failed step; the replay then goes on. Progress
 * goes to the run's progress view; the outcome counts the heals and their model calls and names
 * their sessions.
 */
export async function replayRun(r: ReplayRun): Promise<HealedReplay> {
  const out = r.progress;
  const handlers = withSecrets(r.handlers, r.secrets, r.probe);
  const healSessions: string[] = [];
  const heal = async (req: HealRequest): Promise<HealResult> => {
    if (r.noModel) return { ok: false, note: `no model can heal it: ${r.noModel.split("\n")[0]}`, modelCalls: 0 };
    const client = await r.backend();
    const outcome = await runTask(client, {
      task: healTask(req),
      ...(r.model ? { model: r.model } : {}),
      ...(r.maxSteps ? { maxSteps: r.maxSteps } : {}),
      handlers: r.handlers,
      onEvent: (e) => out.event(e),
      onApproval: r.onApproval,
      signal: r.signal,
      ...(r.secrets.length ? { secrets: r.secrets, page: r.probe } : {}),
    });
    healSessions.push(outcome.session.id);
    const note = outcome.answer || outcome.reason;
    return { ok: outcome.status === "completed", note, modelCalls: outcome.session.step };
  };
  const onEvent = (e: ReplayEvent) => {
    switch (e.type) {
      case "replay_turn":
        out.note(`Step ${e.turn}/${e.turns} · replaying`, { type: "replay_turn", turn: e.turn, turns: e.turns });
        break;
      case "replay_call":
        out.note(e.error ? `✗ ${e.call}: ${e.error.split("\n")[0]}` : `✓ ${e.call} (${e.ms} ms)`, { type: "replay_call", turn: e.turn, call: e.call, ms: e.ms, ...(e.error ? { error: e.error } : {}) });
        break;
      case "heal_start":
        out.note(`↳ Step ${e.request.turn}: ${e.request.reason}. Handing it to the model…`, { type: "heal_start", turn: e.request.turn, reason: e.request.reason });
        break;
      case "heal_end":
        out.note(
          e.result.ok ? `✓ Step ${e.turn} healed in ${e.result.modelCalls} model call(s): ${e.result.note}` : `✗ Step ${e.turn} not healed: ${e.result.note}`,
          { type: "heal_end", turn: e.turn, ok: e.result.ok, modelCalls: e.result.modelCalls, note: e.result.note },
        );
        break;
    }
  };
  const outcome = await replayScript({ script: r.script, goal: r.goal, handlers: handlers as never, probe: r.probe, heal, onEvent, signal: r.signal });
  return { ...outcome, healSessions };
}
