/**
 * readArgs enforces the JSON Schema the model was given: for every tool, a valid sample and
 * systematic mutations of it are judged the same way by readArgs (via parseToolCall) and by Ajv.
 */
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "./json-schema.js";
import { parseToolCall } from "./parse-tool-call.js";

function sample(s: JsonSchema): unknown {
  switch (s.type) {
    case "string":
      return s.enum?.[0] ?? "a".repeat(Math.max(s.minLength ?? 0, 3));
    case "integer":
    case "number":
      return Math.floor(((s.minimum ?? 0) + Math.min(s.maximum ?? 1000, 1000)) / 2);
    case "boolean":
      return true;
    case "array":
      return [sample(s.items ?? {})];
    default:
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, sample(v)]));
  }
}

/** Mutations of a valid object: each names what it does. */
function mutations(s: JsonSchema, valid: Record<string, unknown>): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [["valid", valid], ["unknown key", { ...valid, bogus: 1 }]];
  for (const [k, p] of Object.entries(s.properties ?? {})) {
    const without = { ...valid };
    delete without[k];
    out.push([`${k} omitted`, without]);
    out.push([`${k} wrong type`, { ...valid, [k]: p.type === "string" ? 7 : "seven" }]);
    const item = p.type === "array" ? (p.items ?? {}) : p;
    const wrap = (v: unknown) => (p.type === "array" ? [v] : v);
    if (item.maximum !== undefined) out.push([`${k} above maximum`, { ...valid, [k]: wrap(item.maximum + 1) }]);
    if (item.minimum !== undefined) out.push([`${k} below minimum`, { ...valid, [k]: wrap(item.minimum - 1) }]);
    if (item.type === "integer") out.push([`${k} fractional`, { ...valid, [k]: wrap(1.5) }]);
    if (item.maxLength !== undefined) out.push([`${k} too long`, { ...valid, [k]: wrap("x".repeat(item.maxLength + 1)) }]);
    if (item.minLength) out.push([`${k} too short`, { ...valid, [k]: wrap("") }]);
    if (item.enum) out.push([`${k} not in enum`, { ...valid, [k]: wrap("zzz") }]);
    if (p.maxItems !== undefined) {
      out.push([`${k} too many items`, { ...valid, [k]: Array.from({ length: p.maxItems + 1 }, () => sample(item)) }]);
    }
  }
  return out;
}

describe("readArgs agrees with JSON Schema", () => {
  const ajv = new Ajv({ strict: true, validateFormats: false });
  for (const tool of Object.values(toolCatalog.tools)) {
    it(`${tool.name}: valid sample and every mutation`, () => {
      const schema = tool.parameters as JsonSchema;
      const check = ajv.compile(schema);
      const valid = sample(schema) as Record<string, unknown>;
      const cases = mutations(schema, valid);
      expect(cases.length).toBeGreaterThan(1);
      for (const [what, args] of cases) {
        const byAjv = check(args);
        const bySdk = parseToolCall(toolCatalog, tool.name, JSON.stringify(args));
        expect(bySdk.ok, `${tool.name} / ${what}: ajv=${byAjv} ${bySdk.ok ? "" : bySdk.error.message}`).toBe(byAjv);
      }
    });
  }
});
