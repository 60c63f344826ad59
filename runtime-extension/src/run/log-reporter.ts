import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { type LogEntrySchema, LogLevel } from "@baton/gen/baton/v1/agent_pb";
import { ReportLogRequestSchema } from "@baton/gen/baton/v1/descriptors";
import type { BatonClient } from "@baton/sdk/client";

type Entry = MessageInitShape<typeof LogEntrySchema>;

/** Credential-looking strings, masked before anything leaves the panel. */
const secretish = /\b(bt_[\w-]{6,}|sk-[\w-]{8,}|AIza[\w-]{20,}|Bearer\s+\S+|eyJ[\w-]{10,}\.[\w-]+\.[\w-]+)/g;

/** Masks what looks like a credential. */
export function redact(text: string): string {
  return text.replace(secretish, "[redacted]");
}

/**
 * Sends the panel's errors to the backend with `ReportLog`, under the session and step they
 * belong to, so an operator can see why a run went wrong without the user's machine. What it sends is the panel's own words (a tool's error message, an exception's
 * message and stack), never a call's parameters (typed text may be a password), and anything
 * that looks like a credential is masked. Batched: at most one request a second.
 */
export class LogReporter {
  #sessionId = "";
  #step = 0;
  #queue: Entry[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly client: BatonClient) {}

  /** The session (and step) that later entries belong to. */
  at(sessionId: string, step: number): void {
    this.#sessionId = sessionId;
    this.#step = step;
  }

  /** Queues an entry. */
  report(level: "warn" | "error", message: string, details: { tool?: string; toolcallId?: string; attributes?: Record<string, string> } = {}): void {
    const attributes = Object.fromEntries(Object.entries(details.attributes ?? {}).map(([k, v]) => [k, redact(v).slice(0, 2000)]));
    this.#queue.push({
      level: level === "warn" ? LogLevel.WARN : LogLevel.ERROR,
      message: redact(message).slice(0, 4000),
      step: this.#step,
      tool: details.tool ?? "",
      toolcallId: details.toolcallId ?? "",
      time: timestampNow(),
      attributes,
    });
    this.#timer ??= setTimeout(() => void this.flush(), 1000);
  }

  /** Sends what is queued (nothing without a session). */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#sessionId || this.#queue.length === 0) return;
    const entries = this.#queue.splice(0);
    await this.client.reportLog(create(ReportLogRequestSchema, { sessionId: this.#sessionId, entries })).catch(() => undefined);
  }
}
