import { create, fromBinary, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { type AgentMessage, type StepResponse } from "@baton/gen/baton/v1/agent_pb";
import { StepResponseSchema } from "@baton/gen/baton/v1/descriptors";
import { fromHex } from "./literal.js";
import { type SessionSummary, sessionMessage } from "./sessions.js";

/** A step's response: its messages and the session as `s` has it. The one place a StepResponse is made. */
export function stepResponse(s: SessionSummary, messages: AgentMessage[]): StepResponse {
  return create(StepResponseSchema, { messages, session: sessionMessage(s) });
}

/**
 * The answer to an input whose response was stored: the stored messages, and the session as it
 * stands (`s`, read with them). A step stores its response in the commit that ends it, so until
 * the session moves on this is exactly what the step answered. Rows hold the messages as
 * protobuf JSON in `response` (`RecordTexts.response`); older rows hold a whole response, as
 * protobuf bytes in `body` (from migration 8 until 14) or as JSON, and only its messages count.
 */
export function storedResponse(s: SessionSummary, body: unknown, json: unknown): StepResponse | undefined {
  let stored: StepResponse;
  if (body instanceof Uint8Array) stored = fromBinary(StepResponseSchema, body);
  else if (typeof body === "string" && body.startsWith("\\x")) stored = fromBinary(StepResponseSchema, fromHex(body));
  else if (json != null) stored = fromJson(StepResponseSchema, (typeof json === "string" ? JSON.parse(json) : json) as JsonValue);
  else return undefined;
  return stepResponse(s, stored.messages);
}
