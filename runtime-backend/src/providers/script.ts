import { readFileSync } from "node:fs";
import { ProviderError, type ModelRequest, type ModelTurn, type Provider } from "./types.js";
import { kindForStatus } from "./retry.js";

/** One scripted model turn. */
export interface ScriptTurn {
  /** Text the model "says" (may carry <goal>, <non-task>, <context> tags). */
  readonly text?: string;
  /** Tool calls; `args` is an object (sent as JSON) or a raw string (to script bad JSON). */
  readonly calls?: readonly { readonly name: string; readonly args?: unknown }[];
  /** A micro summary, sent as `<context>…</context>` after the text. */
  readonly context?: string;
  /** A macro summary, sent as `<context><fold>…</fold></context>` only when the prompt asks to fold. */
  readonly fold?: string;
  /** Simulated model latency. */
  readonly delayMs?: number;
  /** Fail this call with an HTTP-like status instead of answering. */
  readonly error?: { readonly status: number; readonly message?: string };
  /** Reported usage; estimated from characters when absent. */
  readonly usage?: { readonly input?: number; readonly output?: number; readonly cached?: number };
}

/** A script: turns played in order, indexed by the session's model-call count. */
export interface Script {
  readonly turns: readonly ScriptTurn[];
  /** After the last turn, replay from this index forever (for benchmarks); done otherwise. */
  readonly loopFrom?: number;
}

/** A script as data, or a function of the request (tests that react to the prompt). */
export type ScriptSource = Script | ((req: ModelRequest) => ScriptTurn);

function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new ProviderError("aborted", "stopped during the model call"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function pick(script: Script, i: number): ScriptTurn {
  const n = script.turns.length;
  if (i < n) return script.turns[i] as ScriptTurn;
  if (script.loopFrom !== undefined && script.loopFrom < n) {
    return script.turns[script.loopFrom + ((i - n) % (n - script.loopFrom))] as ScriptTurn;
  }
  return { calls: [{ name: "done", args: { answer: "The script has no more turns.", success: false } }] };
}

/** Cheap size estimate (chars / 4) so zero-latency benchmarks do not measure a tokenizer. */
function estimate(req: ModelRequest): number {
  let chars = req.system.length;
  for (const it of req.items) chars += it.type === "tool_result" ? it.output.length : it.text.length;
  return Math.ceil(chars / 4);
}

/**
 * Replays a script instead of calling a model: deterministic, offline, and indexed by the
 * session's model-call count, so a restarted backend continues the same script where the
 * session left off. Used by tests, the CLI (`--model script:path.json`) and benchmarks.
 */
export class ScriptProvider implements Provider {
  readonly name = "script";

  constructor(private readonly source: ScriptSource) {}

  /** Loads a script file (JSON, `{ "turns": [...] }`). */
  static fromFile(path: string): ScriptProvider {
    return new ScriptProvider(JSON.parse(readFileSync(path, "utf8")) as Script);
  }

  async generate(req: ModelRequest): Promise<ModelTurn> {
    if (req.signal.aborted) throw new ProviderError("aborted", "stopped before the model call");
    const turn = typeof this.source === "function" ? this.source(req) : pick(this.source, req.callIndex);
    await wait(turn.delayMs ?? 0, req.signal);
    if (turn.error) {
      throw new ProviderError(kindForStatus(turn.error.status), turn.error.message ?? `scripted ${turn.error.status}`, turn.error.status);
    }
    let text = turn.text ?? "";
    if (req.foldRequested && turn.fold) text += `\n<context><fold>${turn.fold}</fold></context>`;
    else if (turn.context) text += `\n<context>${turn.context}</context>`;
    const calls = (turn.calls ?? []).map((c, i) => ({
      id: `script_${req.callIndex}_${i}`,
      name: c.name,
      arguments: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}),
    }));
    if (text) req.onTextDelta?.(text);
    return {
      text,
      reasoning: "",
      calls,
      usage: {
        input: turn.usage?.input ?? estimate(req),
        output: turn.usage?.output ?? Math.ceil((text.length + calls.reduce((n, c) => n + c.arguments.length, 0)) / 4),
        cached: turn.usage?.cached ?? 0,
      },
      retries: 0,
      notes: [],
    };
  }
}
