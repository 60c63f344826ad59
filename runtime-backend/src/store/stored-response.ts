import { fromBinary, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { type StepResponse } from "@baton/gen/baton/v1/agent_pb";
import { StepResponseSchema } from "@baton/gen/baton/v1/descriptors";
import { fromHex } from "./literal.js";

/**
 * A stored step response: `body`, the protobuf bytes the client received (so a retried request
 * gets exactly that answer again), or `json` for rows stored before migration 8.
 */
export function storedResponse(body: unknown, json: unknown): StepResponse | undefined {
  if (body instanceof Uint8Array) return fromBinary(StepResponseSchema, body);
  if (typeof body === "string" && body.startsWith("\\x")) return fromBinary(StepResponseSchema, fromHex(body));
  if (json == null) return undefined;
  return fromJson(StepResponseSchema, (typeof json === "string" ? JSON.parse(json) : json) as JsonValue);
}
