import type { ToolCall } from "@baton/gen/baton/v1/tools_pb";
import type { RunEvent, TaskOutcome } from "@baton/sdk/client";
import type { RememberScope } from "./approval-rules.js";
import type { Notice, PageRef } from "./tool-executor.js";
import type { UploadAsk } from "./upload-paths.js";


/** Events the panel adds to the run's own. */
export type PanelEvent =
  | RunEvent
  | { readonly type: "task"; readonly text: string }
  | { readonly type: "image"; readonly toolcallId: string; readonly src: string }
  | { readonly type: "notice"; readonly notice: Notice }
  | {
      readonly type: "approval_request";
      readonly id: string;
      readonly description: string;
      readonly page: PageRef;
      /** Held by the backend (irreversible) or asked by the user's own policy (every change). */
      readonly source: "backend" | "policy";
      /** An upload from outside the upload folders: the files' full paths and the folders. */
      readonly upload?: UploadAsk;
      /** Set when the answer can be remembered: the call's site (an origin) and its action class. */
      readonly remember?: RememberScope;
    }
  | {
      readonly type: "approval_decided";
      readonly id: string;
      readonly approved: boolean;
      readonly onSite?: boolean;
      /** Upload cards: the folders "Always allow files from" added to the upload folders. */
      readonly addedFolders?: readonly string[];
    }
  | { readonly type: "question"; readonly id: string; readonly question: string; readonly choices: readonly string[] }
  | { readonly type: "answered"; readonly id: string; readonly answer: string }
  | { readonly type: "paused"; readonly reason: string | undefined }
  | { readonly type: "resuming" }
  | { readonly type: "error"; readonly message: string };

/** One entry of the timeline. */
export type TimelineItem =
  | { readonly kind: "task"; readonly id: string; readonly text: string }
  | { readonly kind: "thinking"; readonly id: string }
  | { readonly kind: "text"; readonly id: string; readonly text: string; readonly streaming: boolean }
  | {
      readonly kind: "step";
      readonly id: string;
      readonly tool: string;
      readonly description: string;
      readonly state: "running" | "done" | "failed" | "replayed";
      readonly ms?: number;
      readonly error?: string;
      /** Why a replayed step did not run again. */
      readonly note?: string;
      readonly images: readonly string[];
    }
  | {
      readonly kind: "approval";
      readonly id: string;
      readonly description: string;
      readonly page: PageRef;
      readonly source: "backend" | "policy";
      readonly upload?: UploadAsk;
      readonly remember?: RememberScope;
      readonly state: "pending" | "approved" | "denied";
      /** The answer holds for every call of its class on the site (always or never). */
      readonly onSite?: boolean;
      /** Folders the answer added to the upload folders. */
      readonly addedFolders?: readonly string[];
    }
  | {
      readonly kind: "question";
      readonly id: string;
      readonly question: string;
      readonly choices: readonly string[];
      readonly state: "pending" | "answered";
      readonly answer?: string;
    }
  | { readonly kind: "notice"; readonly id: string; readonly tone: "info" | "warn" | "error"; readonly title: string; readonly text: string }
  | { readonly kind: "paused"; readonly id: string; readonly state: "active" | "resolved" }
  | { readonly kind: "outcome"; readonly id: string; readonly status: TaskOutcome["status"]; readonly text: string };

/** What the reducer needs from the run: words for a call. */
export interface TimelineContext {
  describe(call: ToolCall): string;
}

let seq = 0;
const nextId = (p: string) => `${p}-${++seq}`;

/**
 * Without the transient entries: "Thinking…", and streamed text whose final message never
 * came (the step's final messages are authoritative: a reply that was only control tags, such
 * as `<goal>`, has no text for the user).
 */
const withoutThinking = (items: readonly TimelineItem[]) => items.filter((i) => i.kind !== "thinking" && !(i.kind === "text" && i.streaming));

function update<K extends TimelineItem["kind"]>(
  items: readonly TimelineItem[],
  kind: K,
  id: string,
  change: (i: Extract<TimelineItem, { kind: K }>) => TimelineItem,
): TimelineItem[] {
  return items.map((i) => (i.kind === kind && i.id === id ? change(i as Extract<TimelineItem, { kind: K }>) : i));
}

/** A backend's reason as the panel shows it: "stopped by the user" → "Stopped by the user." */
function sentence(reason: string): string {
  const t = reason.trim();
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[\p{L}\p{N}]$/u.test(s) ? `${s}.` : s;
}

/** What a notice says, in words. */
function noticeText(n: Notice): { tone: "info" | "warn"; title: string; text: string } {
  if (n.kind === "restricted") {
    return {
      tone: "warn",
      title: "Baton can't act on this page",
      text: `Chrome doesn't let extensions read or control ${n.url || "browser pages"}. Baton can open a website in this tab, or you can start from a tab with a web page.`,
    };
  }
  return {
    tone: "info",
    title: "Working without the debugger",
    text: `${n.byUser ? "As you chose, Baton" : "Chrome's debugger cannot attach to this tab, so Baton"} reads and acts on it through the page itself. Screenshots and file uploads are unavailable here.`,
  };
}

/**
 * The timeline as a pure function of the run's events: the task, "Thinking…" while the model
 * works, its text as it streams, each tool call in words with its outcome and screenshots,
 * approval and question cards, notices, and how the run ended.
 */
export function reduceTimeline(items: readonly TimelineItem[], e: PanelEvent, ctx: TimelineContext): TimelineItem[] {
  switch (e.type) {
    case "task":
      return [...withoutThinking(items), { kind: "task", id: nextId("task"), text: e.text }];
    case "thinking":
      return items.at(-1)?.kind === "thinking" ? [...items] : [...withoutThinking(items), { kind: "thinking", id: nextId("thinking") }];
    case "text_delta": {
      const last = items.at(-1);
      if (last?.kind === "text" && last.streaming) return [...items.slice(0, -1), { ...last, text: last.text + e.delta }];
      return [...items.filter((i) => i.kind !== "thinking"), { kind: "text", id: nextId("text"), text: e.delta, streaming: true }];
    }
    case "text": {
      const streaming = items.findLastIndex((i) => i.kind === "text" && i.streaming);
      const id = streaming >= 0 ? (items[streaming] as TimelineItem).id : nextId("text");
      return [...withoutThinking(items), { kind: "text", id, text: e.text, streaming: false }];
    }
    case "tool_start": {
      // ask_user shows as its question card, not as a step.
      if (e.tool.case === "askUser") return withoutThinking(items);
      const step: TimelineItem = { kind: "step", id: e.toolcallId, tool: e.tool.name, description: e.extension ? e.tool.title : ctx.describe(e.call), state: "running", images: [] };
      // A call the history already shows (a resumed run) runs again in its place.
      if (items.some((i) => i.kind === "step" && i.id === e.toolcallId)) return withoutThinking(items).map((i) => (i.kind === "step" && i.id === e.toolcallId ? step : i));
      return [...withoutThinking(items), step];
    }
    case "tool_end":
      return update(items, "step", e.toolcallId, (s) => ({
        ...s,
        state: e.error ? "failed" : "done",
        ms: e.ms,
        ...(e.error ? { error: e.error.message } : {}),
      }));
    case "tool_replayed": {
      const note = e.result.outcome.case === "error" ? "cut short when the panel closed: the agent checks the page" : "done before the panel closed: not repeated";
      if (items.some((i) => i.kind === "step" && i.id === e.toolcallId)) {
        return withoutThinking(items).map((i) => (i.kind === "step" && i.id === e.toolcallId ? { ...i, state: "replayed" as const, note } : i));
      }
      return [...withoutThinking(items), { kind: "step", id: e.toolcallId, tool: "", description: "An earlier step", note, state: "replayed", images: [] }];
    }
    case "image":
      return update(items, "step", e.toolcallId, (s) => ({ ...s, images: [...s.images, e.src] }));
    case "approval_request": {
      const card: TimelineItem = { kind: "approval", id: e.id, description: e.description, page: e.page, source: e.source, ...(e.upload ? { upload: e.upload } : {}), ...(e.remember ? { remember: e.remember } : {}), state: "pending" };
      const rest = withoutThinking(items);
      // The user's own policy asks from inside the call: the card goes before its step.
      const at = rest.findIndex((i) => i.kind === "step" && i.id === e.id);
      return at >= 0 ? [...rest.slice(0, at), card, ...rest.slice(at)] : [...rest, card];
    }
    case "approval_decided":
      return update(items, "approval", e.id, (a) => ({ ...a, state: e.approved ? "approved" : "denied", ...(e.onSite ? { onSite: true } : {}), ...(e.addedFolders ? { addedFolders: e.addedFolders } : {}) }));
    case "approval":
      return update(items, "approval", e.toolcallId, (a) => ({ ...a, state: e.decision.approved ? "approved" : "denied" }));
    case "question":
      return [...withoutThinking(items), { kind: "question", id: e.id, question: e.question, choices: e.choices, state: "pending" }];
    case "answered":
      return update(items, "question", e.id, (q) => ({ ...q, state: "answered", answer: e.answer }));
    case "notice":
      return [...items, { kind: "notice", id: nextId("notice"), ...noticeText(e.notice) }];
    case "paused": {
      if (e.reason) return [...withoutThinking(items), { kind: "paused", id: nextId("paused"), state: "active" }];
      return items.map((i) => (i.kind === "paused" && i.state === "active" ? { ...i, state: "resolved" } : i));
    }
    case "resuming":
      return [...items, { kind: "notice", id: nextId("notice"), tone: "info", title: "Picking up where it left off", text: "The panel was closed during this task. Steps already done are not repeated." }];
    case "retry":
      return [...items, { kind: "notice", id: nextId("notice"), tone: "info", title: "Connection lost", text: `Retrying (attempt ${e.attempt}): ${e.error}` }];
    case "error":
      return [...withoutThinking(items), { kind: "notice", id: nextId("notice"), tone: "error", title: "The task could not go on", text: e.message }];
    case "done": {
      const o = e.outcome;
      const text = o.status === "completed" ? o.answer || "Done." : o.reason ? sentence(o.reason) : o.status === "stopped" ? "Stopped." : "The task failed.";
      return [...withoutThinking(items).map((i) => (i.kind === "step" && i.state === "running" ? { ...i, state: "failed" as const, error: "stopped" } : i)), { kind: "outcome", id: nextId("outcome"), status: o.status, text }];
    }
    default:
      return [...items];
  }
}
