import type { CallRow } from "../store/records.js";

/** The calls of a step that may go ahead now, and who acts on them. */
export interface NextCalls {
  /**
   * "client": it runs them, or asks the user to approve the last one; "backend": the loop
   * runs them inline; undefined: every call is done (the model runs next).
   */
  readonly actor: "client" | "backend" | undefined;
  /** In the model's order; empty when `actor` is undefined. */
  readonly calls: CallRow[];
}

/** Who acts on an open call: a call awaiting approval goes to the client (the user decides there), whatever its side. */
function actorOf(c: CallRow): "client" | "backend" {
  return c.state === "awaiting_approval" || c.side === "client" ? "client" : "backend";
}

/**
 * The one rule of the order calls run in: the model's. The step's first call not yet done
 * decides who acts, the consecutive open calls for the same actor go with it, and a call
 * awaiting the user's approval ends the run: the calls after it are held (not handed out, not
 * run) until it is approved and done — or refused, which closes them unrun (see apply-input).
 * Derived from the stored states alone, so it holds across a restart. `calls` are one step's,
 * in order (by `ord`), as the store and the model turn give them.
 */
export function nextCalls(calls: readonly CallRow[]): NextCalls {
  const out: CallRow[] = [];
  let actor: "client" | "backend" | undefined;
  for (const c of calls) {
    if (c.state === "done") continue;
    const a = actorOf(c);
    if (actor !== undefined && a !== actor) break;
    actor = a;
    out.push(c);
    if (c.state === "awaiting_approval") break;
  }
  return { actor, calls: out };
}

/**
 * The calls of `call`'s step that the model made after it and that are not done yet. Nothing
 * after a refused call runs (the calls were planned on the page it would have left), and
 * nothing after `done` runs nor is handed out (the session is over): both close these unrun.
 */
export function openAfter(call: CallRow, calls: readonly CallRow[]): CallRow[] {
  return calls.filter((c) => c.step === call.step && c.ord > call.ord && c.state !== "done");
}

/** The function-call messages of the calls the client acts on now, in the model's order. */
export function clientMessages(calls: readonly CallRow[]): NonNullable<CallRow["message"]>[] {
  const next = nextCalls(calls);
  return next.actor === "client" ? next.calls.flatMap((c) => (c.message ? [c.message] : [])) : [];
}
