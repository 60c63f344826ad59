import { type DescField, type DescMessage, type DescMethod, type Message, ScalarType } from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { fieldLimits as agentFieldLimits, type FieldLimits, type MethodLimits, methodLimits as agentMethodLimits } from "@baton/gen/baton/v1/agent_limits";
import { fieldLimits as consoleFieldLimits, methodLimits as consoleMethodLimits } from "@baton/gen/baton/v1/console_limits";
import { fieldLimits as toolFieldLimits } from "@baton/gen/baton/v1/tools_limits";
import { file_baton_v1_tools } from "@baton/gen/baton/v1/descriptors";

/** Character limit of a map key, which the proto cannot annotate. */
const maxKeyLength = 256;

/** google.protobuf.Timestamp's documented range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z. */
const minSeconds = -62_135_596_800n;
const maxSeconds = 253_402_300_799n;

const loneSurrogate = /\p{Cs}/u;

const fieldLimits = { ...toolFieldLimits, ...agentFieldLimits, ...consoleFieldLimits };
const methodLimits = { ...agentMethodLimits, ...consoleMethodLimits };

/** A method's `(baton.v1.method)` option (byte limit, access), from the generated `*_limits.ts`. */
export function methodLimitsOf(method: DescMethod): MethodLimits | undefined {
  return methodLimits[`${method.parent.typeName}.${method.name}`];
}

/**
 * A field's `(baton.v1.field)` limits, from the generated `*_limits.ts` (the embedded descriptors
 * carry no custom options), or undefined when it has none.
 */
export function limitsOf(f: DescField): FieldLimits | undefined {
  return fieldLimits[f.parent.typeName]?.[f.name];
}

/**
 * Tool results (tools.proto) are page content the client's engine produced: bounded by the
 * RPC's byte limit, stored as encoded JSON, never as SQL values of their own. Their text may
 * hold anything a page holds, so they are not held to request rules.
 */
function isPayload(m: DescMessage): boolean {
  return m.file === file_baton_v1_tools;
}

function bad(path: string, why: string): never {
  throw new ConnectError(`${path} ${why}`, Code.InvalidArgument);
}

function checkString(path: string, s: string, max: number | undefined, min: number | undefined): void {
  if (s.includes("\0")) bad(path, "contains a NUL character");
  // In a /u pattern a surrogate pair is one code point, so only a lone surrogate matches.
  if (loneSurrogate.test(s)) bad(path, "is not valid Unicode (a lone surrogate)");
  // Lengths count characters (code points), as JSON Schema's maxLength does.
  if (max !== undefined && s.length > max && [...s].length > max) bad(path, `is longer than ${max} characters`);
  if (min !== undefined && min > 0 && [...s].length < min) bad(path, `is shorter than ${min} characters`);
}

function checkNumber(path: string, v: number | bigint, c: FieldLimits | undefined): void {
  if (typeof v === "number" && !Number.isFinite(v)) bad(path, "is not a finite number");
  if (c?.maximum !== undefined && v > c.maximum) bad(path, `is larger than ${c.maximum}`);
  if (c?.minimum !== undefined && v < c.minimum) bad(path, `is smaller than ${c.minimum}`);
}

function checkScalar(path: string, scalar: ScalarType, v: unknown, c: FieldLimits | undefined): void {
  if (scalar === ScalarType.STRING) checkString(path, v as string, c?.maxLength, c?.minLength);
  else if (scalar !== ScalarType.BOOL && scalar !== ScalarType.BYTES) checkNumber(path, v as number | bigint, c);
}

function checkEnum(path: string, f: DescField, v: number): void {
  const e = f.enum;
  if (e && !e.values.some((x) => x.number === v)) bad(path, `is ${v}, not a value of ${e.name}`);
}

function checkMessageValue(path: string, r: ReflectMessage): void {
  if (r.desc.typeName === "google.protobuf.Timestamp") {
    const t = r.message as unknown as { seconds: bigint; nanos: number };
    const seconds = BigInt(t.seconds);
    const nanos = Number(t.nanos);
    if (seconds < minSeconds || seconds > maxSeconds) bad(path, "is outside 0001-01-01..9999-12-31");
    if (!Number.isInteger(nanos) || nanos < 0 || nanos > 999_999_999) bad(path, "has nanos outside 0..999999999");
    return;
  }
  if (isPayload(r.desc)) return;
  walk(path, r);
}

function walk(prefix: string, r: ReflectMessage): void {
  for (const f of r.fields) {
    if (!r.isSet(f)) continue;
    const path = prefix ? `${prefix}.${f.name}` : f.name;
    const c = limitsOf(f);
    switch (f.fieldKind) {
      case "scalar":
        checkScalar(path, f.scalar, r.get(f), c);
        break;
      case "enum":
        checkEnum(path, f, r.get(f));
        break;
      case "message":
        checkMessageValue(path, r.get(f));
        break;
      case "list": {
        const list = r.get(f);
        if (c?.maxItems !== undefined && list.size > c.maxItems) bad(path, `has more than ${c.maxItems} items`);
        let i = 0;
        for (const item of list) {
          const at = `${path}[${i++}]`;
          if (f.listKind === "scalar") checkScalar(at, f.scalar, item, c);
          else if (f.listKind === "enum") checkEnum(at, f, item as number);
          else checkMessageValue(at, item as ReflectMessage);
        }
        break;
      }
      case "map": {
        const map = r.get(f);
        if (c?.maxItems !== undefined && map.size > c.maxItems) bad(path, `has more than ${c.maxItems} entries`);
        for (const [k, v] of map) {
          const at = `${path}[${JSON.stringify(String(k)).slice(0, 40)}]`;
          if (typeof k === "string") checkString(`${path} key ${JSON.stringify(k.slice(0, 40))}`, k, maxKeyLength, undefined);
          if (f.mapKind === "scalar") checkScalar(at, f.scalar, v, c);
          else if (f.mapKind === "enum") checkEnum(at, f, v as number);
          else checkMessageValue(at, v as ReflectMessage);
        }
        break;
      }
    }
  }
}

/**
 * Checks a request against its proto: the `(baton.v1.field)` limits (lengths, item counts,
 * ranges), and what every field must be to reach the store: strings without NUL and with no
 * lone surrogate, known enum values, timestamps in range. Throws InvalidArgument naming the
 * field (`entries[2].attributes["k"] is longer than 1000 characters`). Tool results inside a
 * request are page content and are left as they are.
 */
export function checkRequest(desc: DescMessage, message: Message): void {
  walk("", reflect(desc, message));
}

/** The largest request a method accepts, in bytes, from its `(baton.v1.method)` option. */
export function maxRequestBytes(method: DescMethod, fallback: number): number {
  const n = methodLimitsOf(method)?.maxRequestBytes ?? 0;
  return n > 0 ? n : fallback;
}

async function* checkedStream<T extends Message>(desc: DescMessage, messages: AsyncIterable<T>): AsyncIterable<T> {
  for await (const m of messages) {
    checkRequest(desc, m);
    yield m;
  }
}

/** An interceptor that holds every request to {@link checkRequest} before the implementation runs. */
export function requestChecker(): Interceptor {
  return (next) => (req) => {
    if (!req.stream) {
      checkRequest(req.method.input, req.message);
      return next(req);
    }
    return next({ ...req, message: checkedStream(req.method.input, req.message) });
  };
}
