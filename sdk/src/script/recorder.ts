import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { maskText, placeholder, type Secret } from "../client/secrets.js";
import { type ToolSpec, toolByCase, toModelJson } from "../contract/index.js";
import type { ScriptCall, ScriptExpectations, ScriptFile, ScriptTurn } from "./script-file.js";
import { secretTypingKey } from "./secret-typing.js";
import type { SnapshotRef } from "./snapshot-refs.js";
import type { TargetSpec } from "./targets.js";

/** What a recorder needs of the page: its refs as the model last saw them, and its URL. */
export interface RecordingPage {
  /** The refs of the latest snapshot (role and accessible name), in document order. */
  refs(): readonly SnapshotRef[];
  /** The page's URL now. */
  url(): Promise<string>;
}

/** The context a recorded handler runs with: the session and step group calls into turns. */
export interface RecordingContext {
  readonly sessionId?: string;
  readonly step?: number;
  /** "start" for the client's own opening of the start URL, which a script does not repeat. */
  readonly toolcallId?: string;
}

interface Recorded {
  /** Session and step: calls of one model turn. */
  readonly turn: string;
  readonly call: ScriptCall;
  readonly targeted: boolean;
  /** The page's URL before and after the call. */
  readonly before: string;
  readonly after: string;
}

/** Parameters that name an element by ref. */
function isRefField(name: string): boolean {
  return name === "ref" || name.endsWith("_ref");
}

/** A ref as role and name, with `nth` among equal ones, from the snapshot the model acted on. */
export function targetOf(refs: readonly SnapshotRef[], ref: string): TargetSpec | undefined {
  const el = refs.find((r) => r.ref === ref);
  if (!el) return undefined;
  const twins = refs.filter((r) => r.role === el.role && r.name === el.name);
  const nth = twins.findIndex((r) => r.ref === ref);
  return { role: el.role, name: el.name, ...(nth > 0 ? { nth } : {}) };
}

/** A path-only pattern for a URL, so a script replays on another host or port. */
export function urlPattern(url: string): string {
  let path = url;
  try {
    const u = new URL(url);
    path = `${u.pathname}${u.search}`;
  } catch {
    // not a URL: matched as it is
  }
  return `${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;
}

/** A secret's name from a field's accessible name: "Confirm password" → "confirm_password". */
function secretName(field: string, taken: readonly Secret[]): string {
  const base = `${/^[a-z]/.test(field.toLowerCase()) ? "" : "field_"}${field.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "")}`.slice(0, 56) || "secret";
  let name = base;
  for (let n = 2; taken.some((s) => s.name === name); n++) name = `${base}_${n}`;
  return name;
}

/** Tools that only read the page: recorded, but a replay has no need to repeat them. */
export const perceptionTools = new Set(["take_snapshot", "screenshot", "extract"]);

/**
 * Records a run as a script file while it runs: a layer around the client's handlers that
 * writes down each call that succeeded, grouped by the model turn (step) that made it, with
 * every ref turned into role + accessible name (`nth` among equals) from the snapshot the model
 * acted on, and the page's URL around it. Put it outside any secrets layer, or give `mask`, so a
 * secret is written as its placeholder. Text typed into a field named like a password that is
 * no secret's placeholder (the model typed it as it is) is written as a placeholder too, named
 * after the field (`<secret>password</secret>`), and that value is masked wherever else the
 * script would hold it: a replay is given it with `--secret` ({@link ScriptRecorder.secretNames}).
 */
export class ScriptRecorder<Ctx extends RecordingContext> {
  private readonly calls: Recorded[] = [];
  /** Values typed as they are into secret fields, under the names the script gives them. */
  private readonly typed: Secret[] = [];

  constructor(
    private readonly page: RecordingPage,
    private readonly mask: (text: string) => string = (t) => t,
  ) {}

  /** The handlers, recording as they run. */
  wrap(handlers: ClientToolHandlers<Ctx>): ClientToolHandlers<Ctx> {
    const out: Record<string, unknown> = {};
    for (const [key, handler] of Object.entries(handlers) as [string, (p: unknown, ctx: Ctx) => Promise<unknown>][]) {
      const spec = toolByCase(toolCatalog, key as never) as ToolSpec | undefined;
      out[key] = async (params: unknown, ctx: Ctx) => {
        if (!spec || spec.name === "ask_user" || ctx.toolcallId === "start") return handler(params, ctx);
        const args = toModelJson(spec.params, params as never) as Record<string, unknown>;
        // Arguments at their schema's default say nothing: a script leaves them out.
        const props = (spec.parameters as { properties?: Record<string, { default?: unknown }> }).properties ?? {};
        for (const [k, v] of Object.entries(args)) if (props[k]?.default !== undefined && JSON.stringify(props[k]?.default) === JSON.stringify(v)) delete args[k];
        let targeted = false;
        for (const [k, v] of Object.entries(args)) {
          if (!isRefField(k) || typeof v !== "string") continue;
          const target = targetOf(this.page.refs(), v);
          if (target) {
            args[k] = target;
            targeted = true;
          }
        }
        const before = await this.page.url().catch(() => "");
        const result = await handler(params, ctx);
        const after = await this.page.url().catch(() => before);
        const masked = this.#maskedDeep(args);
        const key = secretTypingKey({ name: spec.name, args: masked });
        const text = key ? (masked[key] as string) : "";
        if (key && !text.includes("<secret>")) {
          const field = (masked.ref as TargetSpec).name;
          let known = this.typed.find((s) => s.value === text);
          if (!known) this.typed.push((known = { name: secretName(field, this.typed), value: text }));
          masked[key] = placeholder(known.name);
        }
        this.calls.push({ turn: `${ctx.sessionId ?? ""}/${ctx.step ?? 0}`, call: { name: spec.name, ...(Object.keys(masked).length ? { args: masked } : {}) }, targeted, before, after });
        return result;
      };
    }
    return out as unknown as ClientToolHandlers<Ctx>;
  }

  /** A text with every secret value in it masked: the run's (`mask`) and those typed as they are into secret fields. */
  masked(text: string): string {
    return maskText(this.mask(text), this.typed);
  }

  /** A copy of a JSON value with each string masked (strings only: a short value never breaks the JSON). */
  #maskedDeep<T>(value: T): T {
    return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "string" ? this.masked(v) : v))) as T;
  }

  /** The secrets the script types by placeholder because they were typed as they are: a replay needs each (`--secret NAME=@FILE`). */
  get secretNames(): string[] {
    return this.typed.map((s) => s.name);
  }

  /** Calls recorded so far. */
  get size(): number {
    return this.calls.length;
  }

  /**
   * The script: a first turn with the goal and a snapshot, a turn per model turn that acted
   * (each followed by a snapshot when the next one names elements, so the script provider can
   * resolve them), the URL it led to as that turn's expectation, a last turn calling `done`
   * with the answer, and the final page's expectations.
   */
  script(o: { goal: string; answer: string; expect: ScriptExpectations }): ScriptFile {
    // In the order the turns began (a replay's steps and a heal's turns interleave by session).
    const byTurn = new Map<string, Recorded[]>();
    for (const c of this.calls) byTurn.set(c.turn, [...(byTurn.get(c.turn) ?? []), c]);
    const groups = [...byTurn.values()];
    const turns: { text?: string; calls: ScriptCall[]; expect?: ScriptExpectations }[] = [
      { text: `<goal>${o.goal}</goal>`, calls: [{ name: "take_snapshot" }] },
    ];
    for (const g of groups) {
      const prev = turns.at(-1) as { calls: ScriptCall[] };
      if (g.some((c) => c.targeted) && prev.calls.at(-1)?.name !== "take_snapshot") prev.calls.push({ name: "take_snapshot" });
      const first = g[0] as Recorded;
      const last = g.at(-1) as Recorded;
      const moved = last.after && urlPattern(last.after) !== urlPattern(first.before);
      turns.push({ calls: g.map((c) => c.call), ...(moved ? { expect: { url: urlPattern(last.after) } } : {}) });
    }
    turns.push({ calls: [{ name: "done", args: { answer: o.answer } }] });
    // Calls recorded before a value was known as a secret (typed into a plain field first) are masked now too.
    return this.#maskedDeep({ turns: turns as ScriptTurn[], expect: o.expect });
  }
}
