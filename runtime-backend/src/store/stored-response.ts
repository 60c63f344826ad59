import { fromBinary, fromJson, type JsonValue, toBinary } from "@bufbuild/protobuf";
import { type StepResponse, StepResponseSchema } from "@baton/gen/baton/v1/agent_pb";

/**
 * A step's response is stored as the protobuf bytes the client receives (so a retried request
 * gets exactly those bytes again), and they are encoded once: the fast unary path
 * (`server/fast-unary.ts`) sends the bytes kept on the message instead of encoding it again.
 */
const encodedBody = Symbol("baton.encodedBody");

type Encoded = StepResponse & { [encodedBody]?: Uint8Array };

/**
 * The response's protobuf bytes, encoded now and kept on the message for the HTTP layer. The
 * message must not change afterwards (the loop builds a response, stores it and returns it).
 */
export function encodeResponse(r: StepResponse): Uint8Array {
  const bytes = toBinary(StepResponseSchema, r);
  // Not enumerable: a copy of the message ({...r}) or a comparison of two does not carry it.
  Object.defineProperty(r, encodedBody, { value: bytes, enumerable: false, configurable: true, writable: true });
  return bytes;
}

/** The bytes {@link encodeResponse} kept on a message, if any. */
export function encodedBodyOf(m: object): Uint8Array | undefined {
  return (m as Encoded)[encodedBody];
}

/** A stored response: `body` (protobuf bytes), or `json` for rows stored before migration 8. */
export function storedResponse(body: unknown, json: unknown): StepResponse | undefined {
  if (body instanceof Uint8Array) return fromBinary(StepResponseSchema, body);
  if (typeof body === "string" && body.startsWith("\\x")) return fromBinary(StepResponseSchema, Buffer.from(body.slice(2), "hex"));
  if (json == null) return undefined;
  return fromJson(StepResponseSchema, (typeof json === "string" ? JSON.parse(json) : json) as JsonValue);
}
