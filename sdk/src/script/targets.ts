import { type SnapshotRef, snapshotRefs } from "./snapshot-refs.js";

/** An element named by role and accessible name instead of a ref. */
export interface TargetSpec {
  readonly role: string;
  readonly name: string;
  /** Which match, when several elements share role and name (0-based; default 0). */
  readonly nth?: number;
  /**
   * Text of the row, list item, card or ref the element is indented in ("subject:(invoice)" for
   * that filter's "delete" link), matched ignoring case and spacing, as a substring.
   */
  readonly within?: string;
}

/** Whether a value is a {@link TargetSpec}. */
export function isTarget(value: unknown): value is TargetSpec {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as TargetSpec).role === "string" &&
    typeof (value as TargetSpec).name === "string"
  );
}

function norm(s: string): string {
  return s.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * Finds the ref of `target` among `refs`: same role (and, with `within`, in a block holding that
 * text), then the name matched exactly, else ignoring case and spacing, else as a substring.
 * Undefined when nothing matches.
 */
export function findTarget(refs: readonly SnapshotRef[], target: TargetSpec): string | undefined {
  const role = norm(target.role);
  const within = target.within === undefined ? undefined : norm(target.within);
  const sameRole = refs.filter((r) => norm(r.role) === role && (within === undefined || norm(r.context ?? "").includes(within)));
  const want = norm(target.name);
  for (const match of [
    (r: SnapshotRef) => r.name === target.name,
    (r: SnapshotRef) => norm(r.name) === want,
    (r: SnapshotRef) => norm(r.name).includes(want),
  ]) {
    const hits = sameRole.filter(match);
    if (hits.length > 0) return hits[target.nth ?? 0]?.ref;
  }
  return undefined;
}

/** The outcome of {@link resolveTargets}. */
export interface ResolvedArgs {
  readonly args: Record<string, unknown>;
  /** Targets that matched nothing, as `role "name"`. */
  readonly unresolved: readonly string[];
}

/**
 * Replaces every argument written as `{ "role": …, "name": … }` (for `ref`, `from_ref`,
 * `to_ref`, …) by the ref of the matching element in `snapshotText`. A target that matches
 * nothing becomes a ref no snapshot has (`"unresolved: button \"Pay\""`), so the engine answers
 * with an unknown-ref error the way it would for a model's mistake.
 */
export function resolveTargets(args: Record<string, unknown>, snapshotText: string | undefined): ResolvedArgs {
  const refs = snapshotText ? snapshotRefs(snapshotText) : [];
  const unresolved: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (!isTarget(value)) {
      out[key] = value;
      continue;
    }
    const ref = findTarget(refs, value);
    if (ref) {
      out[key] = ref;
    } else {
      const label = `${value.role} ${JSON.stringify(value.name)}`;
      unresolved.push(label);
      out[key] = `unresolved: ${label}`;
    }
  }
  return { args: out, unresolved };
}

/**
 * The text of the most recent snapshot among tool outputs (as the model reads them, oldest
 * first): a take_snapshot result's `text`, or the fresh snapshot attached to an error.
 */
export function latestSnapshotText(outputs: readonly string[]): string | undefined {
  // A diff is read with the snapshots before it, up to a whole one: its lines first, so what changed wins.
  const texts: string[] = [];
  for (let i = outputs.length - 1; i >= 0; i--) {
    try {
      const v = JSON.parse(outputs[i] ?? "") as { text?: unknown; diff_base?: unknown; error?: { snapshot?: { text?: unknown } } };
      // Of all tool results, only take_snapshot's has a top-level `text`.
      const text = typeof v.text === "string" ? v.text : v.error?.snapshot?.text;
      if (typeof text !== "string") continue;
      texts.push(text);
      if (!v.diff_base) break;
    } catch {
      // Not JSON: not a snapshot.
    }
  }
  return texts.length ? texts.join("\n") : undefined;
}
