import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { type AnyToolHandlers, dispatchToolCall, findTool, parseToolCall } from "../contract/index.js";
import { perceptionTools } from "./recorder.js";
import { checkExpectations, type PageProbe, type ScriptCall, type ScriptExpectations, type ScriptFile } from "./script-file.js";
import { secretBullets } from "../client/describe-call.js";
import { secretTypingKey } from "./secret-typing.js";
import { isTarget, resolveTargets } from "./targets.js";

/** What a replayed call runs with (the client's RunContext fits). */
export interface ReplayContext {
  readonly sessionId: string;
  readonly toolcallId: string;
  readonly signal: AbortSignal;
  readonly step?: number;
}

/** A step the replay could not do, handed to a model. */
export interface HealRequest {
  /** The whole task's goal. */
  readonly goal: string;
  /** The failed turn, from 1, of `turns`. */
  readonly turn: number;
  readonly turns: number;
  /** The steps replayed before it, described. */
  readonly done: readonly string[];
  /** What the failed step was to do (its calls from the one that failed), described. */
  readonly failed: string;
  /** Why it failed: a target not on the page, a tool error, an expectation that did not hold. */
  readonly reason: string;
  /** The steps still to replay after it, which the model must leave alone. */
  readonly next: readonly string[];
  /** What must hold when the step is done (the recorded expectations). */
  readonly expect?: ScriptExpectations | undefined;
}

/** How a heal went. */
export interface HealResult {
  readonly ok: boolean;
  /** The model's closing note, or why it failed. */
  readonly note: string;
  /** Model calls it took. */
  readonly modelCalls: number;
}

/** Progress of a replay. */
export type ReplayEvent =
  | { readonly type: "replay_turn"; readonly turn: number; readonly turns: number }
  | { readonly type: "replay_call"; readonly turn: number; readonly call: string; readonly ms: number; readonly error?: string }
  | { readonly type: "heal_start"; readonly request: HealRequest }
  | { readonly type: "heal_end"; readonly turn: number; readonly result: HealResult };

/** How a replay ended. */
export interface ReplayOutcome {
  readonly status: "completed" | "failed" | "stopped";
  /** The recorded answer (a `done` in the script), or the last heal's note. */
  readonly answer: string;
  readonly reason: string;
  /** Steps handed to the model. */
  readonly heals: number;
  /** Model calls the heals took (0 for a replay that needed none). */
  readonly modelCalls: number;
  /** The script's final expectations that still do not hold. */
  readonly broken: readonly string[];
}

/** Options of {@link replayScript}. */
export interface ReplayOptions {
  readonly script: ScriptFile;
  /** The task's goal, for a heal: the script's `<goal>` when it has one. */
  readonly goal: string;
  /** The client's tool handlers (the engine's, behind any secrets layer). */
  readonly handlers: AnyToolHandlers<ReplayContext>;
  /** Reads the page for expectations. */
  readonly probe: PageProbe;
  /** Hands a failed step to a model; without it, a failed step fails the replay. */
  readonly heal?: (request: HealRequest) => Promise<HealResult>;
  readonly onEvent?: (e: ReplayEvent) => void;
  readonly signal?: AbortSignal;
  /** How long a target or an expectation may take to appear before the step counts as failed. */
  readonly patienceMs?: number;
}

/** A script call in words: `click(ref=button "Sign in")`. */
export function describeScriptCall(c: ScriptCall): string {
  if (typeof c.args !== "object") return `${c.name}(${c.args ?? ""})`;
  // Text typed into a password-like field shows as bullets, as a model-driven run's progress shows it.
  const hidden = secretTypingKey(c);
  const parts = Object.entries(c.args).map(([k, v]) =>
    isTarget(v) ? `${k}=${v.role} ${JSON.stringify(v.name)}${v.within ? ` in ${JSON.stringify(v.within)}` : ""}${v.nth ? ` #${v.nth + 1}` : ""}` : k === hidden ? `${k}=${secretBullets(String(v))}` : `${k}=${JSON.stringify(v)}`,
  );
  return `${c.name}(${parts.join(", ")})`;
}

function describeTurn(calls: readonly ScriptCall[]): string {
  const acting = calls.filter((c) => !perceptionTools.has(c.name) && c.name !== "done");
  return acting.length ? acting.map(describeScriptCall).join("; ") : "read the page";
}

function hasTargets(args: Readonly<Record<string, unknown>>): boolean {
  return Object.values(args).some(isTarget);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The goal a script's first turn states (`<goal>…</goal>`), if any. */
export function scriptGoal(script: ScriptFile): string | undefined {
  for (const t of script.turns) {
    const m = /<goal>([\s\S]*?)<\/goal>/i.exec(t.text ?? "");
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}

/**
 * Replays a script without a model: each recorded call runs through the client's handlers, its
 * role + name targets resolved against a fresh snapshot of the page as it is now (so a page
 * whose layout moved still works), and each turn's recorded expectations are checked after it.
 * Snapshots the script took are not repeated (the replay takes its own where a target needs
 * one). When a target is not on the page, a call fails or an expectation does not hold — after
 * waiting up to `patienceMs` for a slow page — the rest of that step goes to `heal` with the
 * goal and the failed step, and the replay continues with the next step. The script's final
 * expectations are checked at the end (and healed the same way).
 */
export async function replayScript(o: ReplayOptions): Promise<ReplayOutcome> {
  const signal = o.signal ?? new AbortController().signal;
  const patience = o.patienceMs ?? 5_000;
  const emit = (e: ReplayEvent) => o.onEvent?.(e);
  const turns = o.script.turns;
  const done: string[] = [];
  let answer = "";
  let heals = 0;
  let modelCalls = 0;
  let n = 0;
  const ctx = (turn: number): ReplayContext => ({ sessionId: "replay", toolcallId: `replay_${turn}_${n++}`, signal, step: turn });

  async function heal(turn: number, calls: readonly ScriptCall[], reason: string, expect?: ScriptExpectations): Promise<string | undefined> {
    const request: HealRequest = {
      goal: o.goal,
      turn: turn + 1,
      turns: turns.length,
      done: [...done],
      failed: describeTurn(calls),
      reason,
      next: turns.slice(turn + 1).map((t) => describeTurn(t.calls ?? [])).filter((d) => d !== "read the page"),
      ...(expect ? { expect } : {}),
    };
    if (!o.heal) return `step ${turn + 1} failed and nothing can heal it: ${reason}`;
    emit({ type: "heal_start", request });
    const result = await o.heal(request);
    heals++;
    modelCalls += result.modelCalls;
    emit({ type: "heal_end", turn: turn + 1, result });
    if (!result.ok) return `step ${turn + 1} could not be healed: ${result.note}`;
    // The recorded answer stands; a heal's note answers only a script that has none.
    if (!answer) answer = result.note;
    return undefined;
  }

  /** A fresh snapshot's text, for resolving targets: the whole page, never a diff (nothing here keeps the page before). */
  async function snapshotText(turn: number): Promise<string> {
    const call = parseToolCall(toolCatalog, "take_snapshot", '{"include_offscreen":true,"max_chars":200000,"full":true}');
    if (!call.ok) return "";
    const out = await dispatchToolCall(toolCatalog, call.call, o.handlers, ctx(turn));
    return out.ok && out.result.tool.case === "takeSnapshot" ? out.result.tool.value.text : "";
  }

  /** Expectations, given time to come true (a replay runs faster than the model did). */
  async function broken(expect: ScriptExpectations | undefined, withAnswer: string): Promise<string[]> {
    const deadline = Date.now() + patience;
    for (;;) {
      const b = await checkExpectations(expect, o.probe, withAnswer);
      if (b.length === 0 || Date.now() >= deadline || signal.aborted) return b;
      await sleep(150);
    }
  }

  const stopped = (): ReplayOutcome => ({ status: "stopped", answer, reason: "stopped by the user", heals, modelCalls, broken: [] });

  turnLoop: for (let t = 0; t < turns.length; t++) {
    const turn = turns[t] as (typeof turns)[number];
    const calls = turn.calls ?? [];
    emit({ type: "replay_turn", turn: t + 1, turns: turns.length });
    let healed = false;
    for (const [i, call] of calls.entries()) {
      if (signal.aborted) return stopped();
      if (call.name === "done") {
        const a = typeof call.args === "object" ? call.args.answer : undefined;
        answer = typeof a === "string" ? a : answer;
        break turnLoop;
      }
      const spec = findTool(toolCatalog, call.name);
      if (perceptionTools.has(call.name) || spec?.side === "backend") continue;
      const rest = calls.slice(i);
      let args = typeof call.args === "object" ? call.args : {};
      if (hasTargets(args)) {
        const deadline = Date.now() + patience;
        let unresolved: readonly string[] = [];
        for (;;) {
          const r = resolveTargets({ ...args }, await snapshotText(t));
          unresolved = r.unresolved;
          if (unresolved.length === 0) {
            args = r.args;
            break;
          }
          if (Date.now() >= deadline || signal.aborted) break;
          await sleep(200);
        }
        if (unresolved.length > 0) {
          const why = await heal(t, rest, `no ${unresolved.join(" and no ")} on the page`, turn.expect);
          if (why) return { status: "failed", answer, reason: why, heals, modelCalls, broken: [] };
          healed = true;
          break;
        }
      }
      const parsed = parseToolCall(toolCatalog, call.name, typeof call.args === "string" ? call.args : JSON.stringify(args));
      const started = Date.now();
      const out = parsed.ok ? await dispatchToolCall(toolCatalog, parsed.call, o.handlers, ctx(t)) : { ok: false as const, error: parsed.error };
      emit({ type: "replay_call", turn: t + 1, call: describeScriptCall(call), ms: Date.now() - started, ...(out.ok ? {} : { error: out.error.message }) });
      if (!out.ok) {
        const why = await heal(t, rest, `${describeScriptCall(call)} failed: ${out.error.message}`, turn.expect);
        if (why) return { status: "failed", answer, reason: why, heals, modelCalls, broken: [] };
        healed = true;
        break;
      }
    }
    if (signal.aborted) return stopped();
    if (!healed && turn.expect) {
      const b = await broken({ ...turn.expect, answer: undefined }, "");
      if (b.length > 0) {
        const why = await heal(t, calls, `after this step, ${b.join("; ")}`, turn.expect);
        if (why) return { status: "failed", answer, reason: why, heals, modelCalls, broken: [] };
      }
    }
    if (calls.some((c) => !perceptionTools.has(c.name))) done.push(describeTurn(calls));
  }
  let b = await broken(o.script.expect, answer);
  if (b.length > 0 && o.heal && !signal.aborted) {
    const why = await heal(turns.length - 1, [], `the task's end state does not hold: ${b.join("; ")}`, o.script.expect);
    if (why) return { status: "failed", answer, reason: why, heals, modelCalls, broken: b };
    b = await broken(o.script.expect, answer);
  }
  if (signal.aborted) return stopped();
  return b.length > 0
    ? { status: "failed", answer, reason: `${b.length} expectation(s) of the script did not hold`, heals, modelCalls, broken: b }
    : { status: "completed", answer, reason: "", heals, modelCalls, broken: [] };
}
