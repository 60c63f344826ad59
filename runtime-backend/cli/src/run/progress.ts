import { toJson } from "@bufbuild/protobuf";
import { describeCall, isSecretField, type RefLookup, type RunEvent } from "@baton/sdk/client";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import type { Session } from "@baton/gen/baton/v1/agent_pb";
import { spendLine, wireSpend } from "@baton/backend/loop";
import { type OutStream, Spinner } from "./spinner.js";
import { terminalStream, terminalText } from "./terminal-text.js";

/** How progress is shown: a spinner (TTY), plain lines (pipes, CI) or JSON lines (--json). */
export type ProgressMode = "tty" | "plain" | "json";

/** Turns run events into output a person (or a program, with --json) can follow. */
export interface Progress {
  /** Handles one event from runTask. */
  event(e: RunEvent): void;
  /** Prints a line of the CLI's own (setup, expectations, the result). */
  note(line: string, data?: Record<string, unknown>): void;
  /** Clears the spinner before a prompt. */
  pause(): void;
  /** Stops the spinner for good. */
  end(): void;
}

/** Removes the protocol tags a model's text carries, keeping what a person wants to read. */
export function displayText(text: string): string {
  return text
    .replace(/<context>[\s\S]*?<\/context>/g, "")
    .replace(/<goal>([\s\S]*?)<\/goal>/g, "Goal: $1\n")
    .replace(/<non-task>\s*<\/non-task>/g, "")
    .replace(/\n{2,}/g, "\n")
    .trim();
}

const squeeze = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * The model's words as they stream: each finished line is printed (indented, reasoning marked
 * with "·"), the line still being written is shown on the status line, and the whole text that
 * arrives when the step ends is printed only if the stream did not already show it.
 */
class StreamedLines {
  private partial = "";
  private shown = "";

  constructor(
    private readonly prefix: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Takes a delta; returns the line in progress (for the status line). */
  push(delta: string): string {
    this.shown += delta;
    const lines = (this.partial + delta).split("\n");
    this.partial = lines.pop() ?? "";
    for (const l of lines) if (l.trim()) this.log(`${this.prefix}${l}`);
    return this.partial;
  }

  /** The whole text at the step's end: prints what the stream did not show. */
  whole(text: string): void {
    if (this.shown && squeeze(this.shown).includes(squeeze(text))) {
      if (this.partial.trim()) this.log(`${this.prefix}${this.partial}`);
    } else {
      for (const l of text.split("\n")) if (l.trim()) this.log(`${this.prefix}${l}`);
    }
    this.reset();
  }

  /** Forgets a stream that was replaced (a retried model call). */
  reset(): void {
    this.partial = "";
    this.shown = "";
  }
}

/**
 * Creates the progress view; `lookup` names refs from the engine's latest snapshot. Everything
 * it prints passes `terminalText`: the model's words, page text in names, URLs and errors.
 */
export function createProgress(mode: ProgressMode, raw: OutStream, lookup: RefLookup): Progress {
  const out = terminalStream(raw);
  if (mode === "json") return jsonProgress(out, lookup);
  // The spinner writes its own control sequences, and cleans what it is given.
  const spinner = mode === "tty" ? new Spinner(raw) : undefined;
  const log = (line: string) => (spinner ? spinner.log(line) : out.write(`${line}\n`));
  const status = (text: string, plainToo = true) => {
    if (spinner) spinner.status(text);
    else if (plainToo) out.write(`${text}\n`);
  };
  let step = 0;
  let current = "";
  const text = new StreamedLines("  ", log);
  const reasoning = new StreamedLines("  · ", log);
  const streaming = (line: string) => spinner?.status(`Step ${step} · Thinking… ${line.trim().slice(-60)}`);
  const spending = newSpend();
  return {
    event(e) {
      switch (e.type) {
        case "session":
          log(e.resumed ? `Resuming session ${e.session.id} (step ${e.session.step})` : `Session ${e.session.id}`);
          step = e.session.step;
          break;
        case "thinking":
          if ((e.attempt ?? 1) > 1) {
            text.reset();
            reasoning.reset();
            log(`  ↻ the model call is retried (attempt ${e.attempt})`);
            break;
          }
          step++;
          status(`Step ${step} · Thinking…`);
          break;
        case "text_delta":
          streaming(text.push(e.delta));
          break;
        case "reasoning_delta":
          streaming(reasoning.push(e.delta));
          break;
        case "reasoning":
          reasoning.whole(e.text);
          break;
        case "text": {
          const t = displayText(e.text);
          if (t) text.whole(t);
          break;
        }
        case "backend_tool":
          status(`Step ${step} · ${e.tool}${e.detail ? `: ${e.detail}` : ""}`);
          break;
        case "tool_start":
          current = describeCall(e.call, lookup);
          status(`Step ${step} · ${current}…`, false);
          break;
        case "tool_end":
          log(e.error ? `✗ ${current}: ${e.error.message.split("\n")[0]}` : `✓ ${current} (${e.ms} ms)`);
          break;
        case "approval":
          log(e.decision.approved ? `✓ Approved ${e.tool.name}` : `✗ Denied ${e.tool.name}${e.decision.reason ? `: ${e.decision.reason}` : ""}`);
          break;
        case "retry":
          log(`… backend unreachable (${e.error}); retrying in ${e.delayMs} ms (attempt ${e.attempt})`);
          break;
        case "tool_replayed":
          log(`↺ ${e.toolcallId}: ${e.result.outcome.case === "error" ? e.result.outcome.value.message.split("\n")[0] : "sent its recorded result again"}`);
          break;
        case "spend": {
          const w = spending(e.session);
          const line = w && spendLine(w.budget, w.spent);
          if (line) log(`  Budget: ${line}`);
          break;
        }
        case "done":
          spinner?.stop();
          break;
        default:
          break;
      }
    },
    note: (line) => log(line),
    pause: () => spinner?.stop(),
    end: () => spinner?.stop(),
  };
}

/** The call's arguments as JSON, with text typed into a password-like field masked. */
function maskedArgs(call: ToolCall, lookup: RefLookup): unknown {
  const json = toJson(toolCatalog.call, call, { useProtoFieldName: true }) as Record<string, Record<string, unknown>>;
  if (call.tool.case === "typeText" && isSecretField(lookup(call.tool.value.ref)?.name)) {
    const args = json.type_text ?? json.typeText;
    if (args) args.text = "••••";
  }
  return json;
}

/**
 * Reads "spend" events: a session's budget and what it spent, or undefined when its tokens and
 * cost are what the last one said (a step's several responses, an approval) so progress shows
 * each step's spend once.
 */
function newSpend(): (s: Session) => ReturnType<typeof wireSpend> | undefined {
  let last = "";
  return (s) => {
    const w = wireSpend(s, Date.now());
    const key = `${s.id} ${w.spent.tokens} ${w.spent.costUsd}`;
    if (key === last) return undefined;
    last = key;
    return w;
  };
}

function jsonProgress(out: OutStream, lookup: RefLookup): Progress {
  const spending = newSpend();
  // Strings are cleaned before they are encoded: JSON escapes C0 controls, and a consumer
  // that prints a decoded field would print them.
  const line = (o: Record<string, unknown>) => out.write(`${JSON.stringify(o, (_k, v: unknown) => (typeof v === "string" ? terminalText(v) : v))}\n`);
  return {
    event(e) {
      switch (e.type) {
        case "session":
          return line({ type: e.type, sessionId: e.session.id, step: e.session.step, resumed: e.resumed });
        case "tool_start":
          return line({
            type: e.type,
            toolcallId: e.toolcallId,
            tool: e.tool.name,
            args: maskedArgs(e.call, lookup),
            description: describeCall(e.call, lookup),
          });
        case "tool_end":
          return line({ type: e.type, toolcallId: e.toolcallId, tool: e.tool.name, ms: e.ms, ...(e.error ? { error: e.error.message } : {}) });
        case "approval":
          return line({ type: e.type, toolcallId: e.toolcallId, tool: e.tool.name, approved: e.decision.approved, reason: e.decision.reason ?? "" });
        case "done": {
          const o = e.outcome;
          return line({ type: e.type, sessionId: o.sessionId, status: o.status, answer: o.answer, reason: o.reason, steps: o.session.step });
        }
        case "tool_replayed":
          return line({ type: e.type, toolcallId: e.toolcallId, outcome: e.result.outcome.case ?? "" });
        case "spend": {
          const w = spending(e.session);
          return w ? line({ type: e.type, sessionId: e.session.id, step: e.session.step, spent: w.spent, budget: w.budget }) : undefined;
        }
        default:
          return line({ ...e });
      }
    },
    note: (text, data) => line({ type: "note", text, ...data }),
    pause: () => undefined,
    end: () => undefined,
  };
}
