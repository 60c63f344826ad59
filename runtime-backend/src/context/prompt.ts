import type { ModelImage, ModelItem } from "../providers/types.js";
import { type FoldOptions, renderContext, shouldFold } from "./fold.js";
import { newFenceId, pageDataRule, promptOutput } from "./page-data.js";
import type { ContextState } from "./state.js";

/** What goes into one model call besides the tools. */
export interface Prompt {
  readonly system: string;
  readonly items: ModelItem[];
  readonly foldRequested: boolean;
}

const base = `You are Baton, an agent that uses a web browser for the user through tools.
Work step by step: look at the page (take_snapshot) before acting on it, act with refs from the latest snapshot, and trust tool results (their evidence) over your expectations.
Tool errors are information: read the message and correct the call; do not repeat a failing call unchanged.
Never invent facts. Ask the user (ask_user) when information only they have is missing.
When the task is complete, or cannot be completed, call done with the answer.`;

const contextRule = `Your memory of this session is the <context> block: the goal, summaries of earlier steps, and only the latest step in full.
In every reply include <context>one short line: what the latest tool results showed that still matters, and what you do next</context>.`;

const goalRule = `This is the first turn. Begin your reply with <goal>the user's goal in one sentence</goal>, or with <non-task></non-task> when the message is not a task (a greeting, a question about you); then answer or act.`;

const foldRule = (all: boolean) =>
  `Your context is getting long. In this reply include <context><fold>one paragraph that replaces ${all ? 'both "Earlier progress" and "Recent steps"' : 'all "Recent steps"'}: every fact, value, URL and decision still needed for the goal, and what is done and what remains</fold></context>.`;

// The system instruction takes few forms per playbook (first turn or not, which fold
// instruction): built once each instead of joined again for every model call.
const systems = new Map<string, string>();

function systemInstruction(playbook: string, firstTurn: boolean, fold: "none" | "recent" | "all"): string {
  const key = `${firstTurn ? 1 : 0}${fold}\u0000${playbook}`;
  let text = systems.get(key);
  if (text === undefined) {
    text = [
      base,
      pageDataRule,
      playbook ? `Follow this playbook:\n<playbook>\n${playbook}\n</playbook>` : "",
      contextRule,
      firstTurn ? goalRule : "",
      fold === "none" ? "" : foldRule(fold === "all"),
    ]
      .filter(Boolean)
      .join("\n\n");
    if (systems.size >= 1000) systems.clear();
    systems.set(key, text);
  }
  return text;
}

/**
 * Builds the prompt of the next model call from the folded context: the system instruction
 * (base rules, the playbook, the context rules, the goal or fold instruction when due), the
 * context block, and the latest interaction replayed verbatim with its tool results, those
 * from the page (and memory the agent saved) fenced as untrusted data ({@link promptOutput})
 * under a fence id new to this prompt. `outputs` holds the latest interaction's results by toolcall id; `images` their
 * screenshots, of which the prompt keeps the last `o.maxImages` (the others are named in a
 * note on their result). `note` (what is left of the session's budget, when it runs low) closes
 * the context block.
 */
export function buildPrompt(
  s: ContextState,
  task: string,
  playbook: string,
  outputs: ReadonlyMap<string, string>,
  o: FoldOptions,
  images: ReadonlyMap<string, readonly ModelImage[]> = new Map(),
  note = "",
): Prompt {
  const foldRequested = shouldFold(s, task, o);
  const system = systemInstruction(playbook, s.isTask === null, foldRequested ? (s.macro.length >= o.mergeMacroAt ? "all" : "recent") : "none");
  let first = renderContext(s, task);
  if (note) first += `\n\n${note}`;
  if (s.pendingUser) first += `\n\nThe user says:\n${s.pendingUser}`;
  else if (!s.latest) first += `\n\nThe user says:\n${task || s.goal}`;
  const items: ModelItem[] = [{ type: "user", text: first }];
  if (s.latest) {
    items.push({ type: "assistant", text: s.latest.text, calls: s.latest.calls });
    const fence = newFenceId();
    // The newest screenshots win the image budget.
    let room = o.maxImages;
    const kept = new Map<string, { keep: ModelImage[]; drop: ModelImage[] }>();
    for (const c of [...s.latest.calls].reverse()) {
      const all = [...(images.get(c.id) ?? [])].reverse();
      const keep = all.slice(0, Math.max(0, room)).reverse();
      room -= keep.length;
      kept.set(c.id, { keep, drop: all.slice(keep.length).reverse() });
    }
    for (const c of s.latest.calls) {
      const output = outputs.get(c.id);
      const shots = kept.get(c.id);
      const dropped = (shots?.drop ?? []).map((img) => `\n[screenshot ${img.id} not shown: a prompt carries only the latest ${o.maxImages}]`).join("");
      items.push({
        type: "tool_result",
        callId: c.id,
        name: c.name,
        output:
          output === undefined
            ? '{"error":{"code":"internal","message":"No result was recorded for this call."}}'
            : promptOutput(c.name, output, fence) + dropped,
        ...(shots?.keep.length ? { images: shots.keep } : {}),
      });
    }
  }
  return { system, items, foldRequested };
}
