import {
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Message,
  type MessageShape,
  ScalarType,
} from "@bufbuild/protobuf";
import { reflect, type ReflectList, type ReflectMap, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { ToolError } from "@baton/gen/baton/v1/agent_pb";
import { ToolErrorSchema } from "@baton/gen/baton/v1/descriptors";
import type { Catalog } from "./catalog.js";
import { modelEnumName } from "./names.js";

function scalarOut(scalar: ScalarType, value: unknown): JsonValue {
  switch (scalar) {
    case ScalarType.BYTES:
      return `[${(value as Uint8Array).length} bytes]`;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: {
      const n = value as number;
      return Number.isInteger(n) ? n : Math.round(n * 100) / 100;
    }
    default:
      if (typeof value === "bigint") {
        return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
      }
      return value as JsonValue;
  }
}

function enumOut(field: DescField, n: number): JsonValue {
  const desc = field.enum;
  const v = desc?.values.find((x) => x.number === n);
  return v ? modelEnumName(v) : n;
}

function messageOut(r: ReflectMessage): JsonValue | undefined {
  if (r.desc.typeName === "google.protobuf.Timestamp") {
    return timestampDate(r.message as never).toISOString();
  }
  const obj = reflectOut(r);
  return Object.keys(obj).length > 0 ? obj : undefined;
}

function itemOut(field: DescField, kind: string | undefined, value: unknown): JsonValue | undefined {
  if (kind === "message") return messageOut(value as ReflectMessage);
  if (kind === "enum") return enumOut(field, value as number);
  return scalarOut(field.scalar ?? ScalarType.STRING, value);
}

function reflectOut(r: ReflectMessage): JsonObject {
  const out: JsonObject = {};
  for (const field of r.fields) {
    if (!r.isSet(field)) continue;
    let v: JsonValue | undefined;
    switch (field.fieldKind) {
      case "scalar":
        v = scalarOut(field.scalar, r.get(field));
        break;
      case "enum":
        v = enumOut(field, r.get(field) as number);
        break;
      case "message":
        v = messageOut(r.get(field) as ReflectMessage);
        break;
      case "list": {
        const items: JsonValue[] = [];
        for (const item of r.get(field) as ReflectList) {
          const x = itemOut(field, field.listKind, item);
          if (x !== undefined) items.push(x);
        }
        v = items;
        break;
      }
      case "map": {
        const obj: JsonObject = {};
        for (const [k, item] of r.get(field) as ReflectMap) {
          const x = itemOut(field, field.mapKind, item);
          if (x !== undefined) obj[String(k)] = x;
        }
        v = obj;
        break;
      }
    }
    if (v !== undefined) out[field.name] = v;
  }
  return out;
}

/**
 * A message as the model should read it: snake_case names, enum values as the short names the
 * tool schemas use, defaults and empty sub-messages left out, bytes summarised (images travel
 * beside the text, not inside it), timestamps as ISO strings, doubles to two decimals.
 */
export function toModelJson<D extends DescMessage>(desc: D, message: MessageShape<D>): JsonObject {
  return reflectOut(reflect(desc, message));
}

/** A tool result (the catalog's result oneof) as compact JSON for the model, without the wrapper. */
export function encodeToolResult<C extends Catalog>(catalog: C, result: MessageShape<C["result"]>): string {
  const oneof = (result as unknown as Record<string, { case?: string; value?: Message }>)[catalog.oneof];
  if (!oneof?.case || !oneof.value) {
    return "{}";
  }
  const tool = Object.values(catalog.tools).find((t) => t.case === oneof.case);
  return tool ? JSON.stringify(toModelJson(tool.result, oneof.value as never)) : "{}";
}

/** A tool error as compact JSON for the model: `{"error":{"code":"stale_ref","message":…}}`. */
export function encodeToolError(error: ToolError): string {
  return JSON.stringify({ error: toModelJson(ToolErrorSchema, error) });
}
