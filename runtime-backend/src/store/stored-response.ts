import { fromBinary, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { type StepResponse, StepResponseSchema } from "@baton/gen/baton/v1/agent_pb";

/** Bytes from bytea's hex text form (`\x0a1b…`), as `pg` returns a bytea inside JSON or as text. */
function fromHex(text: string): Uint8Array {
  const out = new Uint8Array((text.length - 2) / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
  return out;
}

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
