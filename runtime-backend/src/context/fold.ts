import { neutralizeMarkers } from "./page-data.js";
import { resultSummary } from "./result-summary.js";
import type { ContextState, LatestInteraction } from "./state.js";
import type { ParsedTags } from "./tags.js";
import { LineTally } from "./token-count.js";

/** Budgets of the folded context. */
export interface FoldOptions {
  /** Token budget of the context block (goal, summaries, user messages). */
  readonly tokenBudget: number;
  /** Ask the model to fold past this fraction of the budget. */
  readonly foldAtFraction: number;
  /** Ask the model to fold past this many summaries. */
  readonly foldAtSummaries: number;
  /** Longest micro summary kept, in characters. */
  readonly maxSummaryChars: number;
  /**
   * From this many macro summaries on, a fold replaces the earlier progress as well (a
   * rolling summary), so the folded context stays bounded however long the session runs.
   */
  readonly mergeMacroAt: number;
  /**
   * Screenshots a prompt carries at most: the latest ones of the latest interaction (older
   * steps live on as summaries, never as images).
   */
  readonly maxImages: number;
}

/**
 * Defaults: fold past 50% of an 8k-token budget or 20 summaries, so the model is asked to fold
 * while the budget still has room for the fold itself and for the latest interaction in full.
 */
export const defaultFoldOptions: FoldOptions = {
  tokenBudget: 8000,
  foldAtFraction: 0.5,
  foldAtSummaries: 20,
  maxSummaryChars: 400,
  mergeMacroAt: 3,
  maxImages: 2,
};

function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/**
 * A mechanical summary of an interaction, for when the model gave no `<context>` note:
 * what it said, what it called and how each call came out. A browser tool's or a memory
 * search's result is described, never quoted (`resultSummary`): the context block is outside
 * every fence. What is quoted (the model's words, other tools' results) has any marker that
 * could close the context block or open a fence made inert.
 */
export function autoSummary(latest: LatestInteraction, outputs: ReadonlyMap<string, string>, max: number): string {
  const parts: string[] = [];
  if (latest.text) parts.push(clip(latest.text, 120));
  for (const c of latest.calls) {
    const r = resultSummary(c.name, outputs.get(c.id));
    const status = !r.quoted ? r.text : r.text.startsWith('{"error"') ? `error ${clip(r.text, 100)}` : clip(r.text, 80);
    parts.push(`${c.name}(${clip(c.arguments, 60)}) → ${status}`);
  }
  return clip(neutralizeMarkers(`step ${latest.step}: ${parts.join("; ") || "no action"}`), max);
}

function render(s: ContextState, task: string): string {
  const lines: string[] = ["<context>", `Goal: ${s.goal || task}`];
  if (s.user.length > 0) {
    lines.push("User messages:");
    for (const u of s.user) lines.push(`- ${u}`);
  }
  if (s.macro.length > 0) {
    lines.push("Earlier progress (folded):");
    s.macro.forEach((m, i) => lines.push(`${i + 1}. ${m}`));
  }
  if (s.micro.length > 0) {
    lines.push("Recent steps:");
    for (const m of s.micro) lines.push(`- ${m}`);
  }
  lines.push("</context>");
  return lines.join("\n");
}

/**
 * The tokens of {@link render}'s text, tallied line by line from the state's parts without
 * building the text: summaries and user messages are counted once, by their own strings.
 * (`context.test.ts` checks it against counting the rendered text.)
 */
function tally(s: ContextState, task: string): LineTally {
  const t = new LineTally();
  t.line("<context>");
  t.text(`Goal: ${s.goal || task}`);
  if (s.user.length > 0) {
    t.line("User messages:");
    for (const u of s.user) t.bullet(u);
  }
  if (s.macro.length > 0) {
    t.line("Earlier progress (folded):");
    s.macro.forEach((m, i) => t.text(`${i + 1}. ${m}`));
  }
  if (s.micro.length > 0) {
    t.line("Recent steps:");
    for (const m of s.micro) t.bullet(m);
  }
  t.line("</context>", true);
  return t;
}

/** An upper bound of the rendered context's UTF-8 bytes (3 per UTF-16 unit), without building it. */
function maxBytes(s: ContextState, task: string): number {
  let chars = 100 + (s.goal || task).length;
  for (const part of [s.user, s.macro, s.micro]) for (const x of part) chars += x.length + 6;
  return 3 * chars;
}

/**
 * True when the rendered context has more than `limit` tokens. Byte-level BPE never makes
 * more tokens than UTF-8 bytes, so a small context is decided without tokenizing anything.
 */
export function contextExceeds(s: ContextState, task: string, limit: number): boolean {
  if (maxBytes(s, task) <= limit) return false;
  return tally(s, task).exceeds(limit, () => renderContext(s, task));
}

/** What a rendering was made from: the state, its arrays and their lengths, so a shift or push is noticed. */
interface Rendered {
  readonly state: ContextState;
  readonly task: string;
  readonly goal: string;
  readonly parts: readonly (readonly string[])[];
  readonly lengths: readonly number[];
  readonly text: string;
}

/**
 * The last rendering. A turn asks for its state's text several times in a row (fold check,
 * prompt) with nothing in between, so one entry is enough; an entry per session in flight would
 * be held for nothing between turns.
 */
let last: Rendered | undefined;

/**
 * The context block the model reads each turn (also what the budget measures), rebuilt unless
 * the last rendering was of the same state with the same goal and summary lists.
 */
export function renderContext(s: ContextState, task: string): string {
  const parts = [s.user, s.macro, s.micro] as const;
  const hit = last;
  if (hit && hit.state === s && hit.task === task && hit.goal === s.goal && parts.every((p, i) => p === hit.parts[i] && p.length === hit.lengths[i])) {
    return hit.text;
  }
  const text = render(s, task);
  last = { state: s, task, goal: s.goal, parts, lengths: parts.map((p) => p.length), text };
  return text;
}

/** True when the next prompt should carry the fold instruction. */
export function shouldFold(s: ContextState, task: string, o: FoldOptions): boolean {
  if (s.macro.length + s.micro.length > o.foldAtSummaries) return true;
  return contextExceeds(s, task, Math.floor(o.tokenBudget * o.foldAtFraction));
}

/** Drops the oldest summaries until the context fits its budget (the goal always stays). */
export function enforceBudget(s: ContextState, task: string, o: FoldOptions): ContextState {
  const out = { ...s, macro: [...s.macro], micro: [...s.micro], user: [...s.user] };
  while (contextExceeds(out, task, o.tokenBudget)) {
    if (out.macro.length > 1) out.macro.shift();
    else if (out.micro.length > 0) out.micro.shift();
    else if (out.macro.length > 0) out.macro.shift();
    else if (out.user.length > 1) out.user.shift();
    else break;
  }
  return out;
}

/**
 * Folds one model turn into the context: a `<fold>` moves the
 * micro summaries into one macro summary; the previous latest interaction becomes a micro
 * summary (the model's `<context>` note, or a mechanical one); the new turn becomes latest.
 * `outputs` are the results of the previous latest interaction's calls, by toolcall id.
 */
export function applyTurn(
  s: ContextState,
  task: string,
  tags: ParsedTags,
  turn: LatestInteraction,
  outputs: ReadonlyMap<string, string>,
  o: FoldOptions,
): ContextState {
  let next: ContextState = { ...s, macro: [...s.macro], micro: [...s.micro], user: [...s.user] };
  if (s.isTask === null) {
    next.isTask = tags.nonTask ? false : tags.goal ? true : turn.calls.length > 0 ? true : null;
    if (tags.goal) next.goal = clip(tags.goal, 1000);
  }
  if (tags.fold) {
    const fold = clip(tags.fold, o.maxSummaryChars * 4);
    next.macro = s.macro.length >= o.mergeMacroAt ? [fold] : [...s.macro, fold];
    next.micro = [];
  }
  if (s.latest) {
    // The model's note may quote the page: it gets the same treatment.
    const summary = tags.note ? `step ${s.latest.step}: ${clip(neutralizeMarkers(tags.note), o.maxSummaryChars)}` : autoSummary(s.latest, outputs, o.maxSummaryChars);
    next.micro.push(summary);
  }
  next.latest = turn;
  next.pendingUser = null;
  next = enforceBudget(next, task, o);
  return next;
}

/** Records a new user message: the previous interaction is summarised and the message waits for the model. */
export function applyUserMessage(s: ContextState, text: string, outputs: ReadonlyMap<string, string>, o: FoldOptions): ContextState {
  const next: ContextState = { ...s, micro: [...s.micro], user: [...s.user, clip(text, 4000)].slice(-10) };
  if (s.latest) {
    next.micro.push(autoSummary(s.latest, outputs, o.maxSummaryChars));
    next.latest = null;
  }
  next.pendingUser = text;
  return next;
}
