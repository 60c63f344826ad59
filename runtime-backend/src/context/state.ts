/** One tool call as the model made it, kept raw so the next prompt can replay it exactly. */
export interface RawCall {
  /** The toolcall id (ours; provider ids are mapped onto it). */
  readonly id: string;
  /** The tool name as the model spelled it. */
  readonly name: string;
  /** The arguments as the model sent them (a JSON string). */
  readonly arguments: string;
  /** The provider's opaque token for the call, replayed with it (Gemini thought signatures). */
  readonly signature?: string | undefined;
}

/** The last model turn, replayed verbatim in the next prompt with its tool results. */
export interface LatestInteraction {
  /** The step that produced it. */
  readonly step: number;
  /** The model's text (tags stripped). */
  readonly text: string;
  /** Its tool calls, in order. */
  readonly calls: readonly RawCall[];
}

/**
 * The folded context of a session: the goal, macro summaries (folded history),
 * micro summaries (one per recent step), the latest interaction, and the user's messages.
 * Stored as JSON in the session row and rebuilt into every prompt.
 */
export interface ContextState {
  /** The goal extracted on the first turn; the task itself until then. */
  goal: string;
  /** True for a task, false for chit-chat (`<non-task>`), null before the first turn. */
  isTask: boolean | null;
  /** Folded summaries, oldest first. */
  macro: string[];
  /** Per-step summaries since the last fold, oldest first. */
  micro: string[];
  /** The latest interaction, or null before the first model turn. */
  latest: LatestInteraction | null;
  /** The user's messages, oldest first (bounded). */
  user: string[];
  /** A user message that arrived after the latest interaction and is not answered yet. */
  pendingUser: string | null;
}

/** A fresh context for a task. */
export function emptyContext(task = ""): ContextState {
  return { goal: task, isTask: null, macro: [], micro: [], latest: null, user: [], pendingUser: null };
}

/** Reads a stored context, tolerating older or partial JSON. */
export function readContext(json: unknown): ContextState {
  const o = (json && typeof json === "object" ? json : {}) as Partial<ContextState>;
  return {
    goal: typeof o.goal === "string" ? o.goal : "",
    isTask: typeof o.isTask === "boolean" ? o.isTask : null,
    macro: Array.isArray(o.macro) ? o.macro.map(String) : [],
    micro: Array.isArray(o.micro) ? o.micro.map(String) : [],
    latest: o.latest ?? null,
    user: Array.isArray(o.user) ? o.user.map(String) : [],
    pendingUser: typeof o.pendingUser === "string" ? o.pendingUser : null,
  };
}
