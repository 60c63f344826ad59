import { latestSnapshotText, resolveTargets, type ScriptFile, type ScriptTurn } from "@baton/sdk/script";
import { unfence } from "../base/page-fence.js";
import { ProviderError, type ModelRequest, type ModelTurn, type Provider } from "./types.js";
import { kindForStatus, sleep } from "./retry.js";
import { readScriptModel } from "./script-dir.js";
import { imageTokens } from "./vision.js";

/** One scripted model turn (the script file format lives in `@baton/sdk/script`). */
export type { ScriptTurn } from "@baton/sdk/script";

/** A script: turns played in order, indexed by the session's model-call count. */
export type Script = Pick<ScriptFile, "turns" | "loopFrom">;

/** A script as data, or a function of the request (tests that react to the prompt). */
export type ScriptSource = Script | ((req: ModelRequest) => ScriptTurn);

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return ms <= 0 ? Promise.resolve() : sleep(ms, signal, "stopped during the model call");
}

function pick(script: Script, i: number): ScriptTurn {
  const n = script.turns.length;
  if (i < n) return script.turns[i] as ScriptTurn;
  if (script.loopFrom !== undefined && script.loopFrom < n) {
    return script.turns[script.loopFrom + ((i - n) % (n - script.loopFrom))] as ScriptTurn;
  }
  return { calls: [{ name: "done", args: { answer: "The script has no more turns.", success: false } }] };
}

/**
 * Cheap size estimate (chars / 4, and each screenshot at what an API would count for it) so
 * zero-latency benchmarks do not measure a tokenizer.
 */
function estimate(req: ModelRequest): number {
  let chars = req.system.length;
  let images = 0;
  for (const it of req.items) {
    chars += it.type === "tool_result" ? it.output.length : it.text.length;
    if (it.type === "tool_result") for (const img of it.images ?? []) images += imageTokens(img.width, img.height);
  }
  return Math.ceil(chars / 4) + images;
}

/**
 * Replays a script instead of calling a model: deterministic, offline, and indexed by the
 * session's model-call count, so a restarted backend continues the same script where the
 * session left off. Used by tests, the CLI (`--model script:path.json`) and benchmarks.
 */
export class ScriptProvider implements Provider {
  readonly name = "script";

  constructor(private readonly source: ScriptSource) {}


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
    // Targets written as { role, name } are resolved against the latest snapshot this
    // "model" has seen, the way a model reads refs off the page.
    const snapshot = latestSnapshotText(req.items.flatMap((it) => (it.type === "tool_result" ? [unfence(it.output)] : [])));
    const calls = (turn.calls ?? []).map((c, i) => ({
      id: `script_${req.callIndex}_${i}`,
      name: c.name,
      arguments: typeof c.args === "string" ? c.args : JSON.stringify(resolveTargets({ ...c.args }, snapshot).args),
    }));
    if (text) req.onStream?.({ kind: "text", delta: text });
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

/**
 * Script models named by file, `script:NAME`, read from the operator's script directory
 * (`baton serve --script-dir DIR`) only: each file is read once, asynchronously, with the
 * checks of {@link readScriptModel}, when a session first names it.
 */
export class ScriptDirProvider implements Provider {
  readonly name = "script";
  private readonly loaded = new Map<string, Promise<ScriptProvider>>();

  constructor(private readonly dir: string) {}

  private load(model: string): Promise<ScriptProvider> {
    let p = this.loaded.get(model);
    if (!p) {
      p = readScriptModel(this.dir, model).then((s) => new ScriptProvider(s));
      // A file that failed (missing, too big) may be fixed by the operator: read it again next time.
      p.catch(() => this.loaded.delete(model));
      if (this.loaded.size > 1000) this.loaded.clear();
      this.loaded.set(model, p);
    }
    return p;
  }

  async check(model: string): Promise<void> {
    await this.load(model);
  }

  async generate(req: ModelRequest): Promise<ModelTurn> {
    let script: ScriptProvider;
    try {
      script = await this.load(req.model);
    } catch (e) {
      throw new ProviderError("bad_request", e instanceof Error ? e.message : String(e));
    }
    return script.generate(req);
  }
}
