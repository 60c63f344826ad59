import { type Attributes, context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { batonVersion } from "../version.js";
import type { Redact } from "./redact.js";
import { inTrace, sessionTraceId } from "./trace-ids.js";

/**
 * Span attribute names: the OpenTelemetry GenAI semantic conventions' (current names), and
 * `baton.*` for what they have no name for. Values are ids, names, counts, codes and figures:
 * never prompt, page or tool-argument text (the conventions' opt-in content attributes are
 * not set), and every string goes through the same redactor as the logs.
 */
export const spanAttr = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  conversation: "gen_ai.conversation.id",
  agentName: "gen_ai.agent.name",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadTokens: "gen_ai.usage.cache_read.input_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  errorType: "error.type",
  /** Estimated US dollars of a model call (the loop's price table). */
  cost: "baton.cost_usd",
  step: "baton.step",
  /** How the operation ended: ok, error, denied; for an agent step, the session's status. */
  outcome: "baton.outcome",
  /** Where a tool ran: client (the browser side) or backend. */
  toolSide: "baton.tool.side",
  /** Tool calls a model turn asked for. */
  toolCalls: "baton.tool_calls",
  /** What a step request brought: user_message, tool_results or resume. */
  input: "baton.input",
} as const;

/** The tracer every Baton span comes from; a no-op until an SDK is registered (the CLI's telemetry set-up). */
function tracer() {
  return trace.getTracer("baton", batonVersion);
}

/** `gen_ai.provider.name` of a "provider:model" prefix: the conventions' name where it differs from ours. */
const providerNames: Readonly<Record<string, string>> = { gemini: "gcp.gemini" };

/** Provider and model of a "provider:model" string. */
function splitModel(spec: string): { provider: string; model: string } {
  const at = spec.indexOf(":");
  const prefix = at > 0 ? spec.slice(0, at) : "";
  return { provider: providerNames[prefix] ?? (prefix || "_OTHER"), model: at > 0 ? spec.slice(at + 1) : spec };
}

/** The attributes with every string value redacted. */
function clean(attrs: Attributes, redact: Redact): Attributes {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(attrs)) out[k] = typeof v === "string" ? redact(v) : v;
  return out;
}

/** Ends a span with its outcome: an error type marks it failed. */
function endWith(span: Span, outcome: string, errorType?: string): void {
  span.setAttribute(spanAttr.outcome, outcome);
  if (errorType) {
    span.setAttribute(spanAttr.errorType, errorType);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * Runs `fn` inside an `invoke_agent baton` span, a root span of the session's trace
 * ({@link sessionTraceId}): one span per step request the backend serves, whose model calls and
 * backend tools are its children. Ends with the session's status as the outcome (`outcomeOf`),
 * or the error `fn` threw.
 */
export async function traceAgentStep<T>(
  o: { sessionId: string; input: string; redact: Redact },
  fn: () => Promise<T>,
  outcomeOf: (result: T) => { status: string; step: number },
): Promise<T> {
  const span = inTrace(sessionTraceId(o.sessionId), () =>
    tracer().startSpan("invoke_agent baton", {
      root: true,
      kind: SpanKind.INTERNAL,
      attributes: clean({ [spanAttr.operation]: "invoke_agent", [spanAttr.agentName]: "baton", [spanAttr.conversation]: o.sessionId, [spanAttr.input]: o.input }, o.redact),
    }),
  );
  try {
    const result = await context.with(trace.setSpan(context.active(), span), fn);
    const { status, step } = outcomeOf(result);
    span.setAttribute(spanAttr.step, step);
    endWith(span, status, status === "failed" ? "session_failed" : undefined);
    return result;
  } catch (e) {
    endWith(span, "error", e instanceof Error ? e.name : "_OTHER");
    throw e;
  }
}

/** A model call's span, ended by one of its methods. */
export interface ChatSpan {
  /** The call answered: its usage, estimated cost and how many tool calls it made. */
  ok(usage: { input: number; output: number; cached: number }, costUsd: number, toolCalls: number): void;
  /** The call failed: the provider error's kind (rate_limit, auth, aborted, …). */
  failed(kind: string): void;
}

/** Starts a `chat {model}` span (the conventions' inference span) under the active step span. */
export function chatSpan(o: { sessionId: string; model: string; step: number; redact: Redact }): ChatSpan {
  const { provider, model } = splitModel(o.model);
  const span = tracer().startSpan(`chat ${o.redact(model)}`, {
    kind: SpanKind.CLIENT,
    attributes: clean({ [spanAttr.operation]: "chat", [spanAttr.provider]: provider, [spanAttr.requestModel]: model, [spanAttr.conversation]: o.sessionId, [spanAttr.step]: o.step }, o.redact),
  });
  return {
    ok(usage, costUsd, toolCalls) {
      span.setAttributes({
        [spanAttr.inputTokens]: usage.input,
        [spanAttr.outputTokens]: usage.output,
        [spanAttr.cacheReadTokens]: usage.cached,
        [spanAttr.cost]: costUsd,
        [spanAttr.toolCalls]: toolCalls,
      });
      endWith(span, "ok");
    },
    failed(kind) {
      endWith(span, "error", kind);
    },
  };
}

/** What a tool call came to: ok, or an error code (a ToolErrorCode name such as STALE_REF), or denied by the user. */
export type ToolOutcome = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly denied?: boolean };

/** A tool call, as its span names it. */
export interface ToolCallInfo {
  readonly sessionId: string;
  readonly name: string;
  readonly toolcallId: string;
  readonly step: number;
  readonly side: "client" | "backend";
  readonly redact: Redact;
}

function toolAttributes(c: ToolCallInfo): Attributes {
  return clean(
    {
      [spanAttr.operation]: "execute_tool",
      [spanAttr.toolName]: c.name,
      [spanAttr.toolCallId]: c.toolcallId,
      [spanAttr.toolType]: "function",
      [spanAttr.toolSide]: c.side,
      [spanAttr.conversation]: c.sessionId,
      [spanAttr.step]: c.step,
    },
    c.redact,
  );
}

function outcomeFields(out: ToolOutcome): { outcome: string; errorType?: string } {
  return out.ok ? { outcome: "ok" } : { outcome: out.denied ? "denied" : "error", errorType: out.code };
}

/** Starts an `execute_tool {name}` span for a tool the backend runs, under the active step span; ends with the outcome. */
export function toolSpan(c: ToolCallInfo): (out: ToolOutcome) => void {
  const span = tracer().startSpan(`execute_tool ${c.redact(c.name)}`, { kind: SpanKind.INTERNAL, attributes: toolAttributes(c) });
  return (out) => {
    const { outcome, errorType } = outcomeFields(out);
    endWith(span, outcome, errorType);
  };
}

/**
 * Records a client tool call as the backend saw it: a root span of the session's trace from
 * `since` (when the step that handed the call out was committed) to now (its result arrived).
 * Its time includes the client's round trip; the client's own timing is in its events.
 */
export function clientToolSpan(c: ToolCallInfo, since: Date, out: ToolOutcome): void {
  recordSpan({ traceId: sessionTraceId(c.sessionId), name: `execute_tool ${c.name}`, start: since, attributes: toolAttributes(c), redact: c.redact, ...outcomeFields(out) });
}

/**
 * Records a finished span in a trace of its own choosing (a session's, or an MCP client
 * session's): root, from `start` to now, with the given attributes (strings redacted).
 */
export function recordSpan(o: { traceId: string; name: string; start: Date | number; attributes: Attributes; redact: Redact; outcome: string; errorType?: string | undefined }): void {
  const span = inTrace(o.traceId, () =>
    tracer().startSpan(o.redact(o.name), { root: true, kind: SpanKind.INTERNAL, startTime: o.start, attributes: clean(o.attributes, o.redact) }),
  );
  endWith(span, o.outcome, o.errorType);
}
