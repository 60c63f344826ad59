import { toJson } from "@bufbuild/protobuf";
import { describeCall, isSecretField, type RefLookup, type RunEvent } from "@baton/sdk/client";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import { type OutStream, Spinner } from "./spinner.js";

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

/** Creates the progress view; `lookup` names refs from the engine's latest snapshot. */
export function createProgress(mode: ProgressMode, out: OutStream, lookup: RefLookup): Progress {
  if (mode === "json") return jsonProgress(out, lookup);
  const spinner = mode === "tty" ? new Spinner(out) : undefined;
  const log = (line: string) => (spinner ? spinner.log(line) : out.write(`${line}\n`));
  const status = (text: string, plainToo = true) => {
    if (spinner) spinner.status(text);
    else if (plainToo) out.write(`${text}\n`);
  };
  let step = 0;
  let current = "";
  return {
    event(e) {
      switch (e.type) {
        case "session":
          log(e.resumed ? `Resuming session ${e.session.id} (step ${e.session.step})` : `Session ${e.session.id}`);
          step = e.session.step;
          break;
        case "thinking":
          step++;
          status(`Step ${step} · Thinking…`);
          break;
        case "text": {
          const t = displayText(e.text);
          if (t) log(t.split("\n").map((l) => `  ${l}`).join("\n"));
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

function jsonProgress(out: OutStream, lookup: RefLookup): Progress {
  const line = (o: Record<string, unknown>) => out.write(`${JSON.stringify(o)}\n`);
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
        case "text_delta":
          return undefined; // the whole text follows as a "text" event
        default:
          return line({ ...e });
      }
    },
    note: (text, data) => line({ type: "note", text, ...data }),
    pause: () => undefined,
    end: () => undefined,
  };
}
