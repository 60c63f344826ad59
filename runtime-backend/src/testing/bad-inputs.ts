/**
 * A generator of bad requests derived from the proto: for every RPC of a service and every field
 * of its request (nested messages, lists, maps and oneof cases included, tool results excepted),
 * wrong JSON types, boundaries around the field's `(baton.v1.field)` limits, NUL, lone surrogates
 * and invalid UTF-8, integers beyond the store's range, out-of-range timestamps, huge values,
 * and broken encodings (truncated messages, bad wire types, varint overflow, lengths past the
 * end, corrupt compression). Deterministic for a seed.
 */
import { file_baton_v1_tools } from "@baton/gen/baton/v1/descriptors";
import { gzipSync } from "node:zlib";
import {
  type DescField,
  type DescMessage,
  type DescMethod,
  type DescService,
  fromJson,
  type JsonObject,
  type JsonValue,
  type Message,
  ScalarType,
  toBinary,
  toJson,
} from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { limitsOf } from "../server/validate.js";

/** How a bad input travels. */
export type Wire = "connect-proto" | "connect-json" | "connect-proto-gzip" | "grpc";

/** One bad request and what a correct server may answer. */
export interface BadInput {
  /** What it is, for the report: "CreateSession.task: NUL". */
  readonly name: string;
  /** Its family, for the counts: "nul", "too-long", "truncated" … */
  readonly family: string;
  readonly method: DescMethod;
  readonly wire: Wire;
  /** The request body as sent (before compression and framing). */
  readonly body: Uint8Array;
  /**
   * Codes a correct server may answer (snake_case Connect codes); undefined: anything but a
   * server fault (internal, unknown, data_loss).
   */
  readonly expect?: readonly string[];
}

/** A field reached from a request, with the JSON path to it and its limits. */
interface FieldPath {
  /** JSON keys (and list index 0) from the request's root. */
  readonly keys: readonly (string | number)[];
  /** Per key: the other members of its oneof, removed so that only this case is set. */
  readonly siblings: readonly (readonly string[])[];
  /** Field numbers and kinds from the root, to build binary patches. */
  readonly numbers: readonly number[];
  readonly field: DescField;
  /** Proto path, for names: "entries[].attributes". */
  readonly label: string;
}

const serverFaults = new Set(["internal", "unknown", "data_loss"]);

/** True when a code is a server fault (a bad input must never get one). */
export function isServerFault(code: string): boolean {
  return serverFaults.has(code);
}

function isPayload(m: DescMessage): boolean {
  return m.file === file_baton_v1_tools;
}

/** Every field reachable from `desc`, outside tool results, to `depth` messages deep. */
function fieldPaths(desc: DescMessage, depth = 4, keys: (string | number)[] = [], siblings: string[][] = [], numbers: number[] = [], label = ""): FieldPath[] {
  const out: FieldPath[] = [];
  for (const f of desc.fields) {
    const k = [...keys, f.jsonName];
    const sib = [...siblings, f.oneof ? f.oneof.fields.filter((o) => o !== f).map((o) => o.jsonName) : []];
    const n = [...numbers, f.number];
    const l = label ? `${label}.${f.name}` : f.name;
    out.push({ keys: k, siblings: sib, numbers: n, field: f, label: l });
    const child = f.fieldKind === "message" ? f.message : f.fieldKind === "list" && f.listKind === "message" ? f.message : undefined;
    if (child && !isPayload(child) && child.typeName !== "google.protobuf.Timestamp" && depth > 1) {
      const list = f.fieldKind === "list";
      out.push(...fieldPaths(child, depth - 1, list ? [...k, 0] : k, list ? [...sib, []] : sib, n, list ? `${l}[]` : l));
    }
  }
  return out;
}

/** A small seeded PRNG (mulberry32), so a run is repeatable. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function clone<T extends JsonValue>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Sets `value` at the path in a JSON object, creating objects and one-item lists on the way, and clearing other oneof cases. */
function setAt(root: JsonObject, p: Pick<FieldPath, "keys" | "siblings">, value: JsonValue): JsonObject {
  const out = clone(root);
  const keys = p.keys;
  let at: JsonValue = out;
  keys.forEach((k, i) => {
    const last = i === keys.length - 1;
    const next = keys[i + 1];
    const container = at as Record<string | number, JsonValue>;
    for (const other of p.siblings[i] ?? []) delete container[other];
    if (last) {
      container[k] = value;
      return;
    }
    if (container[k] === undefined || container[k] === null || typeof container[k] !== "object") {
      container[k] = typeof next === "number" ? [{}] : {};
    }
    if (typeof next === "number" && Array.isArray(container[k]) && (container[k] as JsonValue[]).length === 0) {
      (container[k] as JsonValue[]).push({});
    }
    at = container[k] as JsonValue;
  });
  return out;
}

const constraints = limitsOf;

const isIntScalar = (s: ScalarType) => s !== ScalarType.STRING && s !== ScalarType.BYTES && s !== ScalarType.BOOL && s !== ScalarType.DOUBLE && s !== ScalarType.FLOAT;
const is64 = (s: ScalarType) => [ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64].includes(s);
const isUnsigned = (s: ScalarType) => [ScalarType.UINT32, ScalarType.UINT64, ScalarType.FIXED32, ScalarType.FIXED64].includes(s);

/** The value kind a field holds in JSON: its scalar, "enum", "message" or "map". */
function kindOf(f: DescField): ScalarType | "enum" | "message" | "map" {
  if (f.fieldKind === "scalar") return f.scalar;
  if (f.fieldKind === "enum") return "enum";
  if (f.fieldKind === "message") return "message";
  if (f.fieldKind === "map") return "map";
  return f.listKind === "scalar" ? f.scalar : f.listKind === "enum" ? "enum" : "message";
}

interface ValueMutation {
  readonly family: string;
  readonly what: string;
  readonly value: JsonValue;
  /** Codes allowed; undefined: anything but a server fault. */
  readonly expect?: readonly string[];
}

const invalid = ["invalid_argument"];
const refused = ["invalid_argument", "resource_exhausted"];

/** Value mutations of one field, from its type and its proto limits. */
function valueMutations(f: DescField): ValueMutation[] {
  const c = constraints(f);
  const list = f.fieldKind === "list";
  const wrap = (v: JsonValue): JsonValue => (list ? [v] : v);
  const kind = kindOf(f);
  const out: ValueMutation[] = [];
  // Wrong JSON types: protobuf JSON refuses them, as InvalidArgument.
  // (An object is a message's JSON: for a message field, one with an unknown key is accepted.)
  if (kind !== "message") out.push({ family: "wrong-type", what: "an object", value: wrap({ x: 1 }), expect: invalid });
  // An unknown enum name is ignored as an unknown field would be (Connect's JSON reading), so no expectation there.
  if (kind !== ScalarType.STRING && kind !== ScalarType.BYTES) {
    out.push({ family: "wrong-type", what: "a word", value: wrap("not-a-number-xyz"), ...(kind === "enum" ? {} : { expect: invalid }) });
  }
  if (kind === ScalarType.STRING || kind === "message" || kind === "map") out.push({ family: "wrong-type", what: "a number", value: wrap(12345), expect: invalid });
  if (!list) out.push({ family: "wrong-type", what: "a list", value: [1, 2], expect: invalid });
  if (kind === ScalarType.STRING) {
    const max = c?.maxLength;
    out.push({ family: "nul", what: "NUL", value: wrap("a\u0000b"), expect: invalid });
    out.push({ family: "surrogate", what: "a lone surrogate", value: wrap("a\ud800b"), expect: invalid });
    out.push({ family: "boundary", what: "empty", value: wrap("") });
    if (max !== undefined) {
      out.push({ family: "boundary", what: `${max} characters (the limit)`, value: wrap("é".repeat(max)) });
      out.push({ family: "too-long", what: `${max + 1} characters`, value: wrap("x".repeat(max + 1)), expect: refused });
    }
    out.push({ family: "huge", what: "2 MB", value: wrap("y".repeat(2_000_000)), expect: refused });
  } else if (typeof kind === "number" && isIntScalar(kind)) {
    const max = c?.maximum;
    if (max !== undefined) {
      out.push({ family: "boundary", what: `${max} (the limit)`, value: wrap(max) });
      out.push({ family: "int-overflow", what: `${max + 1}`, value: wrap(max + 1), expect: invalid });
    }
    const wide = is64(kind) ? ["9223372036854775807", "18446744073709551616"] : [2147483648, 4294967295, 4294967296];
    // Every integer of a request has a maximum in the proto (a test holds it to that), so all of these are over it.
    for (const v of wide) out.push({ family: "int-overflow", what: String(v), value: wrap(v), ...(max !== undefined ? { expect: invalid } : {}) });
    if (isUnsigned(kind)) out.push({ family: "int-overflow", what: "-1", value: wrap(-1), expect: invalid });
    out.push({ family: "wrong-type", what: "a fraction", value: wrap(1.5), expect: invalid });
  } else if (kind === "enum") {
    out.push({ family: "enum", what: "an unknown value", value: wrap(999), expect: invalid });
  } else if (kind === "map") {
    out.push({ family: "nul", what: "a NUL key", value: { "k\u0000": "v" }, expect: invalid });
    out.push({ family: "nul", what: "a NUL value", value: { k: "v\u0000" }, expect: invalid });
    if (c?.maxItems !== undefined) {
      out.push({ family: "too-many", what: `${c.maxItems + 1} entries`, value: Object.fromEntries(Array.from({ length: c.maxItems + 1 }, (_, i) => [`k${i}`, "v"])), expect: refused });
    }
    if (c?.maxLength !== undefined) out.push({ family: "too-long", what: "a long value", value: { k: "z".repeat(c.maxLength + 1) }, expect: refused });
  } else if (kind === "message" && f.message?.typeName === "google.protobuf.Timestamp") {
    out.push({ family: "timestamp", what: "year 10000", value: "10000-01-01T00:00:00Z", expect: invalid });
    out.push({ family: "timestamp", what: "a date that is not one", value: "2024-13-45T99:00:00Z", expect: invalid });
    out.push({ family: "boundary", what: "year 9999", value: "9999-12-31T23:59:59Z" });
  }
  if (list && c?.maxItems !== undefined) {
    const item: JsonValue = kind === "message" ? {} : kind === ScalarType.STRING ? "s" : 0;
    out.push({ family: "too-many", what: `${c.maxItems + 1} items`, value: Array.from({ length: c.maxItems + 1 }, () => item), expect: refused });
  }
  return out;
}

/** The bytes of `raw` (a whole field: tag and value) placed at the path of field numbers, as a patch appended to a message. */
function nestPatch(path: readonly number[], raw: Uint8Array): Uint8Array {
  let inner = raw;
  for (let i = path.length - 2; i >= 0; i--) {
    // A repeated embedded message, or a singular one (which protobuf merges): either way the
    // patch lands inside the field on the way.
    inner = new BinaryWriter().tag(path[i] as number, WireType.LengthDelimited).bytes(inner).finish();
  }
  return inner;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

interface RawMutation {
  readonly family: string;
  readonly what: string;
  readonly raw: Uint8Array;
  readonly expect?: readonly string[];
}

/** Encoding-level faults of one field: invalid UTF-8, a wrong wire type, an overflowing varint, a length past the end. */
function rawMutations(f: DescField): RawMutation[] {
  const n = f.number;
  const out: RawMutation[] = [];
  const kind = kindOf(f);
  if (kind === ScalarType.STRING) {
    out.push({ family: "invalid-utf8", what: "invalid UTF-8", raw: new BinaryWriter().tag(n, WireType.LengthDelimited).bytes(new Uint8Array([0x61, 0xc3, 0x28, 0xff])).finish(), expect: invalid });
  }
  // An 11-byte varint: no integer is that long.
  out.push({ family: "varint-overflow", what: "an 11-byte varint", raw: concat(new BinaryWriter().tag(n, WireType.Varint).finish(), new Uint8Array(11).fill(0xff)), expect: invalid });
  // A wire type that cannot be: 6 and 7 are not wire types.
  out.push({ family: "bad-wire-type", what: "wire type 7", raw: new Uint8Array([(n << 3) | 7, 0]).subarray(0, n < 16 ? 2 : 1), expect: invalid });
  // A length that runs past the end of the message.
  out.push({ family: "truncated", what: "a length past the end", raw: concat(new BinaryWriter().tag(n, WireType.LengthDelimited).finish(), new Uint8Array([0xe8, 0x07, 0x61])), expect: invalid });
  return out;
}

/** Options of {@link badInputs}. */
export interface BadInputOptions {
  /** A valid request of each method, by method name (the mutations start from it). */
  readonly bases: Readonly<Record<string, Message>>;
  readonly seed: number;
  /** How many random variations to add after the systematic ones. */
  readonly extra: number;
}

/**
 * The bad inputs for every method of `service`: systematically, every value mutation of every
 * request field (as Connect JSON, and as binary where protobuf JSON accepts it) and every
 * encoding fault of every field (binary); then `extra` random ones (truncations, byte flips,
 * corrupt compression, gRPC framing, and the systematic mutations over other wires).
 */
export function badInputs(service: DescService, o: BadInputOptions): BadInput[] {
  const rand = seeded(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const out: BadInput[] = [];
  const pool: BadInput[] = [];
  for (const method of service.methods) {
    const base = o.bases[method.name];
    if (!base) continue;
    const baseJson = toJson(method.input, base) as JsonObject;
    const baseBin = toBinary(method.input, base);
    const enc = (s: string) => new TextEncoder().encode(s);
    for (const p of fieldPaths(method.input)) {
      for (const m of valueMutations(p.field)) {
        const json = setAt(baseJson, p, m.value);
        const name = `${method.name}.${p.label}: ${m.what}`;
        out.push({ name, family: m.family, method, wire: "connect-json", body: enc(JSON.stringify(json)), ...(m.expect ? { expect: m.expect } : {}) });
        let bin: Uint8Array | undefined;
        try {
          bin = toBinary(method.input, fromJson(method.input, json));
        } catch {
          // Not expressible as a message (a wrong type): JSON only.
        }
        if (bin) {
          // A lone surrogate does not survive binary encoding (UTF-8 has none: it becomes U+FFFD).
          const expect = m.family === "surrogate" ? undefined : m.expect;
          out.push({ name, family: m.family, method, wire: "connect-proto", body: bin, ...(expect ? { expect } : {}) });
          pool.push({ name, family: m.family, method, wire: pick(["connect-proto-gzip", "grpc"] as const), body: bin, ...(expect ? { expect } : {}) });
        }
      }
      for (const m of rawMutations(p.field)) {
        const body = concat(baseBin, nestPatch(p.numbers, m.raw));
        out.push({ name: `${method.name}.${p.label}: ${m.what}`, family: m.family, method, wire: "connect-proto", body, ...(m.expect ? { expect: m.expect } : {}) });
        pool.push({ name: `${method.name}.${p.label}: ${m.what}`, family: m.family, method, wire: pick(["connect-proto-gzip", "grpc"] as const), body, ...(m.expect ? { expect: m.expect } : {}) });
      }
    }
    // Whole-body faults.
    out.push({ name: `${method.name}: JSON that does not parse`, family: "bad-json", method, wire: "connect-json", body: enc('{"a": '), expect: invalid });
    if (baseBin.length > 1) {
      pool.push({ name: `${method.name}: cut mid-message`, family: "truncated", method, wire: "connect-proto", body: baseBin.subarray(0, baseBin.length - 1) });
    }
  }
  // Random variations until `extra`: drawn from the pool, truncations at random points, flipped bytes.
  for (let i = 0; i < o.extra; i++) {
    const r = rand();
    if (r < 0.5 && pool.length) {
      out.push(pick(pool));
      continue;
    }
    const method = pick(service.methods.filter((m) => o.bases[m.name]));
    const bin = toBinary(method.input, o.bases[method.name] as Message);
    const wire = pick(["connect-proto", "connect-proto-gzip", "grpc"] as const);
    if (r < 0.75) {
      const cut = Math.floor(rand() * bin.length);
      out.push({ name: `${method.name}: the first ${cut} of ${bin.length} bytes`, family: "truncated", method, wire, body: bin.subarray(0, cut) });
    } else {
      const flipped = Uint8Array.from(bin);
      for (let k = 0; k < 3 && flipped.length; k++) flipped[Math.floor(rand() * flipped.length)] = Math.floor(rand() * 256);
      out.push({ name: `${method.name}: 3 bytes flipped`, family: "flipped", method, wire, body: flipped });
    }
  }
  return out;
}

/** A gzip body whose compressed stream is cut short: a corrupt compressed request. */
export function corruptGzip(body: Uint8Array): Uint8Array {
  const z = gzipSync(body);
  return z.subarray(0, Math.max(10, z.length - 6));
}
