import OpenAI from "openai";
import { type AttemptFailure, kindForStatus, parseRetryAfter } from "./retry.js";

/** Maps whatever the OpenAI SDK threw onto a retry decision (status, Retry-After, timeouts). */
export function classifyOpenAiError(e: unknown, timedOut: boolean): AttemptFailure {
  if (timedOut || e instanceof OpenAI.APIConnectionTimeoutError) {
    return { kind: "timeout", status: 0, message: "the model call timed out" };
  }
  if (e instanceof OpenAI.APIUserAbortError) return { kind: "aborted", status: 0, message: "aborted" };
  if (e instanceof OpenAI.APIConnectionError) return { kind: "network", status: 0, message: e.message || "connection failed" };
  if (e instanceof OpenAI.APIError && typeof e.status === "number") {
    return { kind: kindForStatus(e.status), status: e.status, message: e.message, retryAfterMs: parseRetryAfter(e.headers) };
  }
  return { kind: "network", status: 0, message: e instanceof Error ? e.message : String(e) };
}
