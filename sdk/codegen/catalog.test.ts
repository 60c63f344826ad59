/**
 * The generated catalog of Baton's own proto: every tool of the ToolCall oneof is in every
 * generated format, and every JSON Schema is valid JSON Schema that matches the proto fields and
 * their (baton.v1.field) constraints — checked against the descriptors `buf build` compiles, not
 * against the plugin. The same for the limits in `*_limits.ts`, and the runtime descriptors are
 * checked to carry no custom options.
 */
import { create, type DescField, type DescMessage, ScalarType } from "@bufbuild/protobuf";
import { nestedTypes } from "@bufbuild/protobuf/reflect";
import { AgentService, file_baton_v1_agent } from "@baton/gen/baton/v1/agent_pb";
import { fieldLimits as agentFieldLimits, methodLimits } from "@baton/gen/baton/v1/agent_limits";
import { fieldLimits as toolFieldLimits } from "@baton/gen/baton/v1/tools_limits";
import {
  anthropicTools,
  geminiFunctionDeclarations,
  mcpTools,
  openAiChatTools,
  openAiResponsesTools,
  toolCases,
  toolCatalog,
  toolFieldNames,
  toolNames,
} from "@baton/gen/baton/v1/tools_baton";
import { ClickParamsSchema, file_baton_v1_tools, HoverParamsSchema } from "@baton/gen/baton/v1/tools_pb";
// The catalogs take their schemas from descriptors.ts (one copy of the descriptors in a bundle).
import { ToolCallSchema, ToolResultSchema } from "@baton/gen/baton/v1/descriptors";
import { Ajv } from "ajv";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { callRisk } from "../src/contract/catalog.js";
import type { JsonSchema } from "../src/contract/json-schema.js";
import { modelEnumName, modelEnumValues } from "../src/contract/names.js";
import { protoImage } from "./proto-image.js";

const image = protoImage();

const oneofCases = ToolCallSchema.oneofs[0]!.fields;
const names = oneofCases.map((f) => f.name);
const docs = readFileSync(new URL("../../docs/tools.md", import.meta.url), "utf8");
const tools = Object.values(toolCatalog.tools);

function expectedType(field: DescField, kind: string | undefined): string {
  if (kind === "enum") return "string";
  if (kind === "message") return "object";
  switch (field.scalar) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return "string";
    case ScalarType.BOOL:
      return "boolean";
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return "number";
    default:
      return "integer";
  }
}

/** Checks one property schema against its field descriptor and constraints. */
function checkField(field: DescField, s: JsonSchema): void {
  const c = image.fieldOption(field);
  expect(s.description, `${field.name} description`).toBeTruthy();
  const item = field.fieldKind === "list" ? s.items! : s;
  if (field.fieldKind === "list") {
    expect(s.type).toBe("array");
    if (c?.maxItems !== undefined) expect(s.maxItems).toBe(c.maxItems);
  }
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind;
  expect(item.type, field.name).toBe(expectedType(field, kind));
  if (field.enum) {
    expect(item.enum).toEqual(modelEnumValues(field.enum).map(modelEnumName));
  }
  if (c?.maxLength !== undefined) expect(item.maxLength).toBe(c.maxLength);
  if (c?.minLength !== undefined) expect(item.minLength).toBe(c.minLength);
  if (c?.minimum !== undefined) expect(item.minimum).toBe(c.minimum);
  if (c?.maximum !== undefined) expect(item.maximum).toBe(c.maximum);
  if (c?.defaultJson) expect(s.default).toEqual(JSON.parse(c.defaultJson));
}

describe("generated tool catalog", () => {
  it("lists every ToolCall case exactly once in every format, in proto order", () => {
    expect(names.length).toBeGreaterThanOrEqual(22);
    expect(Object.keys(toolCatalog.tools)).toEqual(names);
    expect(openAiResponsesTools.map((t) => t.name)).toEqual(names);
    expect(openAiChatTools.map((t) => t.function.name)).toEqual(names);
    expect(anthropicTools.map((t) => t.name)).toEqual(names);
    expect(geminiFunctionDeclarations.map((t) => t.name)).toEqual(names);
    expect(mcpTools.map((t) => t.name)).toEqual(names);
    expect(Object.keys(toolCases)).toEqual(names);
    expect(Object.values(toolNames)).toEqual(names);
    expect(Object.keys(toolFieldNames)).toEqual(names);
    for (const name of names) {
      expect(docs).toContain(`\n## ${name}\n`);
    }
  });

  it("pairs every tool with its params message, result case and options", () => {
    const results = new Map(ToolResultSchema.oneofs[0]!.fields.map((f) => [f.name, f.message]));
    for (const f of oneofCases) {
      const t = toolCatalog.tools[f.name as keyof typeof toolCatalog.tools];
      expect(t.case).toBe(f.localName);
      expect(t.params).toBe(f.message);
      expect(t.result).toBe(results.get(f.name));
      const opt = image.toolOption(f.message!.typeName)!;
      expect(t.side).toBe(["", "client", "backend"][opt.side]);
      expect(t.risk).toBe(["", "read_only", "mutating", "irreversible"][opt.risk]);
      expect(t.description.length).toBeGreaterThan(20);
      expect(toolCases[t.name as keyof typeof toolCases]).toBe(t.case);
      expect(toolFieldNames[t.name as keyof typeof toolFieldNames]).toEqual(
        Object.fromEntries(f.message!.fields.map((x) => [x.name, x.localName])),
      );
    }
    expect(results.size).toBe(oneofCases.length);
  });

  it("emits JSON Schemas that are valid JSON Schema and match the proto fields", () => {
    const ajv = new Ajv({ strict: true, validateFormats: false });
    for (const t of tools) {
      const schema = t.parameters as JsonSchema;
      expect(ajv.validateSchema(schema), `${t.name}: ${ajv.errorsText()}`).toBe(true);
      expect(() => ajv.compile(schema)).not.toThrow();
      const params: DescMessage = t.params;
      expect(schema.type).toBe("object");
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties ?? {})).toEqual(params.fields.map((f) => f.name));
      const required = params.fields
        .filter((f) => image.fieldOption(f)?.required)
        .map((f) => f.name);
      expect(schema.required ?? []).toEqual(required);
      for (const f of params.fields) {
        checkField(f, schema.properties![f.name]!);
      }
    }
  });

  it("marks the calls whose flag escalates them to irreversible", () => {
    for (const t of tools) {
      const flagged = t.params.fields
        .filter((f) => image.fieldOption(f)?.marksIrreversible)
        .map((f) => f.name);
      expect("irreversibleFlag" in t ? [t.irreversibleFlag] : []).toEqual(flagged);
    }
    const click = toolCatalog.tools.click;
    expect(callRisk(click, create(ClickParamsSchema, { ref: "e1" }))).toBe("mutating");
    expect(callRisk(click, create(ClickParamsSchema, { ref: "e1", irreversible: true }))).toBe("irreversible");
    expect(callRisk(toolCatalog.tools.hover, create(HoverParamsSchema, { ref: "e1" }))).toBe("read_only");
  });

  it("gives MCP the same schemas, and annotations that follow the risk", () => {
    for (const [i, t] of tools.entries()) {
      const m = mcpTools[i]!;
      expect([m.name, m.title, m.description]).toEqual([t.name, t.title, t.description]);
      expect(m.inputSchema).toBe(t.parameters);
      const a = m.annotations as { readOnlyHint: boolean; destructiveHint?: boolean };
      expect(a.readOnlyHint).toBe(t.risk === "read_only");
      // Baton's own catalog has no tool that is irreversible as a whole; the flag makes a call so.
      const risk: string = t.risk;
      expect(a.destructiveHint ?? false).toBe(risk === "irreversible" || "irreversibleFlag" in t);
    }
    expect(mcpTools.find((t) => t.name === "take_snapshot")!.annotations).toEqual({ title: "Read page", readOnlyHint: true });
  });

  it("gives OpenAI, Anthropic and Gemini the same parameters in their own shapes", () => {
    const gemini = new Map(geminiFunctionDeclarations.map((d) => [d.name, d]));
    const lower = (g: unknown): unknown => {
      if (Array.isArray(g)) return g.map(lower);
      if (g && typeof g === "object") {
        return Object.fromEntries(
          Object.entries(g).map(([k, v]) => [k, k === "type" ? String(v).toLowerCase() : lower(v)]),
        );
      }
      return g;
    };
    for (const [i, t] of tools.entries()) {
      expect(openAiResponsesTools[i]!.parameters).toBe(t.parameters);
      expect(openAiChatTools[i]!.function.parameters).toBe(t.parameters);
      expect(anthropicTools[i]!.input_schema).toBe(t.parameters);
      expect(anthropicTools[i]!.description).toBe(t.description);
      expect(openAiResponsesTools[i]!.description).toBe(t.description);
      const g = gemini.get(t.name)!;
      expect(g.description).toBe(t.description);
      const props = (t.parameters as JsonSchema).properties ?? {};
      const gProps = (g.parameters as { properties?: Record<string, { type: string; enum?: string[] }> }).properties ?? {};
      expect(Object.keys(gProps)).toEqual(Object.keys(props));
      for (const [k, p] of Object.entries(props)) {
        expect((lower(gProps[k]) as { type: string }).type).toBe(p.type);
        expect(gProps[k]!.enum).toEqual(p.enum);
      }
      expect("additionalProperties" in g.parameters).toBe(false);
    }
  });
});

describe("generated limits", () => {
  it("*_limits.ts carry every (baton.v1.field) of tools.proto and agent.proto, value for value", () => {
    for (const [file, limits] of [
      [file_baton_v1_tools, toolFieldLimits],
      [file_baton_v1_agent, agentFieldLimits],
    ] as const) {
      const expected: Record<string, Record<string, object>> = {};
      for (const t of nestedTypes(file)) {
        if (t.kind !== "message") continue;
        for (const f of t.fields) {
          const c = image.fieldOption(f);
          if (!c) continue;
          const { description: _d, $typeName: _t, $unknown: _u, ...rest } = c as typeof c & { $unknown?: unknown };
          const set = Object.entries(rest).filter(([, v]) => v !== undefined && v !== false && v !== "");
          (expected[t.typeName] ??= {})[f.name] = Object.fromEntries(set);
        }
      }
      expect(Object.keys(expected).length, file.name).toBeGreaterThan(5);
      expect(limits).toEqual(expected);
    }
  });

  it("methodLimits carry every RPC's (baton.v1.method)", () => {
    for (const m of AgentService.methods) {
      const opt = image.methodOption(m);
      const bytes = opt?.maxRequestBytes;
      expect(bytes, m.name).toBeGreaterThan(0);
      const access = opt?.access ?? [];
      expect(methodLimits[`${AgentService.typeName}.${m.name}`]).toEqual({ maxRequestBytes: bytes, ...(access.length ? { access: [...access] } : {}) });
    }
    expect(Object.keys(methodLimits)).toHaveLength(AgentService.methods.length);
  });

  it("the runtime descriptors carry no custom options and do not import descriptor.proto", () => {
    const deps = (f: typeof file_baton_v1_tools): string[] => f.dependencies.flatMap((d) => [d.name, ...deps(d)]);
    expect(deps(file_baton_v1_agent)).not.toContain("google/protobuf/descriptor");
    for (const file of [file_baton_v1_tools, file_baton_v1_agent]) {
      for (const t of nestedTypes(file)) {
        if (t.kind !== "message") continue;
        expect(t.proto.options?.$unknown ?? [], t.typeName).toEqual([]);
        for (const f of t.fields) expect(f.proto.options?.$unknown ?? [], `${t.typeName}.${f.name}`).toEqual([]);
      }
    }
  });
});
