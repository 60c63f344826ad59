import type { DescEnum, DescField, DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import type { JsonSchema } from "./json-schema.js";
import { modelEnumName, modelEnumValues } from "./names.js";
import { type ValueKind, valueKind } from "./value-kind.js";
import { closest } from "./suggest.js";

/** One thing wrong with a model's arguments, at a path such as `modifiers[1]`. */
export interface ArgProblem {
  readonly path: string;
  readonly message: string;
  /** For an unknown field: the fields valid at its level, listed once in the final message. */
  readonly validFields?: readonly string[];
}

/** Limits that keep hostile or broken arguments cheap to reject. */
export interface ArgLimits {
  /** Longest string accepted for fields without their own max_length. */
  readonly maxString: number;
  /** Most problems reported (the rest are counted). */
  readonly maxProblems: number;
}

/** Defaults for {@link ArgLimits}. */
export const defaultArgLimits: ArgLimits = { maxString: 100_000, maxProblems: 8 };

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") {
    return value.length > 40 ? `a string of ${value.length} characters` : `the string ${JSON.stringify(value)}`;
  }
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const TYPE_WORDS: Record<NonNullable<JsonSchema["type"]>, string> = {
  object: "an object",
  array: "an array",
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
};

/**
 * Reads model arguments for `desc` against its emitted JSON Schema and returns protobuf JSON
 * (proto field names, enum numbers, schema defaults applied) ready for `fromJson`. Both spellings
 * of a field name are accepted (`wait_for_suggestion`, `waitForSuggestion`); `null` means "not
 * given". Every problem found is pushed to `problems`; the return value is meaningful only when
 * none were.
 */
export function readArgs(
  desc: DescMessage,
  schema: JsonSchema,
  value: unknown,
  path: string,
  problems: ArgProblem[],
  limits: ArgLimits = defaultArgLimits,
): JsonObject {
  const out: JsonObject = {};
  if (!isPlainObject(value)) {
    problems.push({ path, message: `${path || "arguments"} must be a JSON object, got ${describe(value)}` });
    return out;
  }
  const byName = new Map<string, DescField>();
  for (const field of desc.fields) {
    byName.set(field.name, field);
    byName.set(field.localName, field);
    byName.set(field.jsonName, field);
  }
  const valid = desc.fields.map((f) => f.name);
  const seen = new Set<DescField>();
  for (const [key, raw] of Object.entries(value)) {
    const field = byName.get(key);
    const at = path ? `${path}.${key}` : key;
    if (!field) {
      const guess = closest(key, valid);
      const hint = guess ? ` (did you mean "${guess}"?)` : "";
      problems.push({ path: at, message: `is not a field${hint}`, validFields: valid });
      continue;
    }
    if (seen.has(field)) {
      problems.push({ path: at, message: `field "${field.name}" is given twice (as snake_case and camelCase)` });
      continue;
    }
    seen.add(field);
    if (raw === null || raw === undefined) {
      continue;
    }
    const fieldSchema = schema.properties?.[field.name] ?? {};
    const fieldPath = path ? `${path}.${field.name}` : field.name;
    const converted = readField(field, fieldSchema, raw, fieldPath, problems, limits);
    if (converted !== undefined) {
      out[field.name] = converted;
    }
  }
  for (const name of schema.required ?? []) {
    if (!Object.hasOwn(out, name) && !problems.some((p) => p.path === (path ? `${path}.${name}` : name))) {
      const fieldSchema = schema.properties?.[name];
      const what = fieldSchema?.type ? ` (${TYPE_WORDS[fieldSchema.type]})` : "";
      problems.push({ path: path ? `${path}.${name}` : name, message: `is required${what}` });
    }
  }
  for (const field of desc.fields) {
    const def = schema.properties?.[field.name]?.default;
    if (def !== undefined && !Object.hasOwn(out, field.name)) {
      out[field.name] = def as JsonValue;
    }
  }
  return out;
}

function readValue(
  kind: ValueKind,
  schema: JsonSchema,
  raw: unknown,
  path: string,
  problems: ArgProblem[],
  limits: ArgLimits,
): JsonValue | undefined {
  if ("enum" in kind) return readEnum(kind.enum, raw, path, problems);
  if ("message" in kind) return readMessage(kind.message, schema, raw, path, problems, limits);
  return readScalar(kind.scalar, schema, raw, path, problems, limits);
}

function readField(
  field: DescField,
  schema: JsonSchema,
  raw: unknown,
  path: string,
  problems: ArgProblem[],
  limits: ArgLimits,
): JsonValue | undefined {
  const kind = valueKind(field);
  if (field.fieldKind === "list") {
    if (!Array.isArray(raw)) {
      problems.push({ path, message: `must be an array, got ${describe(raw)}` });
      return undefined;
    }
    if (schema.maxItems !== undefined && raw.length > schema.maxItems) {
      problems.push({ path, message: `has ${raw.length} items; at most ${schema.maxItems} allowed` });
      return undefined;
    }
    if (schema.minItems !== undefined && raw.length < schema.minItems) {
      problems.push({ path, message: `has ${raw.length} items; at least ${schema.minItems} needed` });
      return undefined;
    }
    const out: JsonValue[] = [];
    raw.forEach((item, i) => {
      const v = readValue(kind, schema.items ?? {}, item, `${path}[${i}]`, problems, limits);
      if (v !== undefined) out.push(v);
    });
    return out;
  }
  if (field.fieldKind === "map") {
    if (!isPlainObject(raw)) {
      problems.push({ path, message: `must be an object, got ${describe(raw)}` });
      return undefined;
    }
    const values = typeof schema.additionalProperties === "object" ? schema.additionalProperties : {};
    const out: JsonObject = {};
    for (const [k, item] of Object.entries(raw)) {
      const v = readValue(kind, values, item, `${path}.${k}`, problems, limits);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  return readValue(kind, schema, raw, path, problems, limits);
}

function readMessage(
  desc: DescMessage,
  schema: JsonSchema,
  raw: unknown,
  path: string,
  problems: ArgProblem[],
  limits: ArgLimits,
): JsonValue | undefined {
  if (schema.type === "string") {
    // Well-known types written as strings (Timestamp, Duration); fromJson checks the format.
    if (typeof raw !== "string") {
      problems.push({ path, message: `must be a string, got ${describe(raw)}` });
      return undefined;
    }
    return raw;
  }
  return readArgs(desc, schema, raw, path, problems, limits);
}

function readEnum(desc: DescEnum, raw: unknown, path: string, problems: ArgProblem[]): JsonValue | undefined {
  const values = modelEnumValues(desc);
  if (typeof raw === "string") {
    const needle = raw.trim().toLowerCase();
    const hit = values.find((v) => modelEnumName(v) === needle || v.name.toLowerCase() === needle);
    if (hit) {
      return hit.number;
    }
  }
  const names = values.map(modelEnumName);
  const guess = typeof raw === "string" ? closest(raw, names) : undefined;
  problems.push({
    path,
    message: `must be one of ${names.map((n) => JSON.stringify(n)).join(", ")}, got ${describe(raw)}${guess ? ` (did you mean "${guess}"?)` : ""}`,
  });
  return undefined;
}

function readScalar(
  scalar: ScalarType,
  schema: JsonSchema,
  raw: unknown,
  path: string,
  problems: ArgProblem[],
  limits: ArgLimits,
): JsonValue | undefined {
  const type = schema.type ?? "string";
  switch (type) {
    case "boolean":
      if (typeof raw !== "boolean") {
        problems.push({ path, message: `must be true or false, got ${describe(raw)}` });
        return undefined;
      }
      return raw;
    case "integer":
    case "number": {
      if (typeof raw !== "number" || !Number.isFinite(raw)) {
        problems.push({ path, message: `must be ${TYPE_WORDS[type]}, got ${describe(raw)}` });
        return undefined;
      }
      if (type === "integer" && !Number.isInteger(raw)) {
        problems.push({ path, message: `must be a whole number, got ${raw}` });
        return undefined;
      }
      if (schema.minimum !== undefined && raw < schema.minimum) {
        problems.push({ path, message: `must be at least ${schema.minimum}, got ${raw}` });
        return undefined;
      }
      if (schema.maximum !== undefined && raw > schema.maximum) {
        problems.push({ path, message: `must be at most ${schema.maximum}, got ${raw}` });
        return undefined;
      }
      if (type === "integer" && !Number.isSafeInteger(raw)) {
        problems.push({ path, message: `is too large to be exact (${raw})` });
        return undefined;
      }
      const is64 = scalar === ScalarType.INT64 || scalar === ScalarType.UINT64 || scalar === ScalarType.SINT64 ||
        scalar === ScalarType.FIXED64 || scalar === ScalarType.SFIXED64;
      return is64 ? String(raw) : raw;
    }
    default: {
      if (typeof raw !== "string") {
        problems.push({ path, message: `must be a string, got ${describe(raw)}` });
        return undefined;
      }
      const max = schema.maxLength ?? limits.maxString;
      if (raw.length > max) {
        problems.push({ path, message: `is ${raw.length} characters long; at most ${max} allowed` });
        return undefined;
      }
      if (schema.minLength !== undefined && raw.length < schema.minLength) {
        problems.push({
          path,
          message: schema.minLength === 1 ? "must not be empty" : `must be at least ${schema.minLength} characters`,
        });
        return undefined;
      }
      return raw;
    }
  }
}
