/**
 * protoc-gen-baton: turns a tool catalog in proto into everything the runtimes need.
 *
 * A catalog is a message carrying `option (baton.v1.catalog)` whose single oneof lists the
 * tools: each case's field name is the snake_case tool name, its message is the tool's params
 * (carrying `option (baton.v1.tool)`), and the message named by `catalog.results` has a oneof
 * with a result per tool under the same case name. For each proto file holding a catalog the
 * plugin emits `<file>_baton.ts`: the catalog data, JSON Schemas, OpenAI (Responses and Chat
 * Completions) tools, Anthropic Messages tools, Gemini function declarations, MCP tools, the
 * snake_case↔camelCase maps and handler map types derived from the oneof. With the option `docs` it emits `<file>.md` instead.
 *
 * For each file whose fields or RPCs carry `(baton.v1.field)` or `(baton.v1.method)` it also emits
 * `<file>_limits.ts`: those options as plain data, so runtime code reads the limits without the
 * options in the embedded descriptors (buf.gen.yaml strips them from protoc-gen-es's input, which
 * keeps google/protobuf/descriptor.proto out of a browser bundle).
 *
 * Custom options are read through the extension descriptors in the request itself, so the
 * plugin never imports generated code and works on any proto that imports baton/v1/options.proto.
 */
import {
  type DescEnum,
  type DescExtension,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescOneof,
  type DescService,
  getOption,
  hasOption,
  isFieldSet,
  ScalarType,
} from "@bufbuild/protobuf";
import { nestedTypes, protoCamelCase } from "@bufbuild/protobuf/reflect";
import {
  type DescriptorProto,
  type EnumDescriptorProto,
  type FieldDescriptorProto,
  FieldDescriptorProtoSchema,
  FieldOptionsSchema,
  MethodOptionsSchema,
} from "@bufbuild/protobuf/wkt";
import { createEcmaScriptPlugin, type GeneratedFile, getComments, runNodeJs, type Schema } from "@bufbuild/protoplugin";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { geminiFunctionDeclaration, mcpToolAnnotations } from "../src/contract/declarations.js";
import type { JsonSchema } from "../src/contract/json-schema.js";
import { modelEnumName, modelEnumValues } from "../src/contract/names.js";
import { type ValueKind, valueKind } from "../src/contract/value-kind.js";

export type { JsonSchema };

/** One tool as the plugin understands it. */
export interface ToolModel {
  name: string;
  case: string;
  title: string;
  description: string;
  side: "client" | "backend";
  risk: "read_only" | "mutating" | "irreversible";
  params: DescMessage;
  result: DescMessage;
  parameters: JsonSchema;
  /** A bool params field that, when true, makes the call irreversible. */
  irreversibleFlag?: string;
  /** The tool opens, leaves or closes pages rather than acting inside one. */
  navigation?: boolean;
}

/** One catalog: the call message, its result message and its tools in declaration order. */
export interface CatalogModel {
  call: DescMessage;
  result: DescMessage;
  oneof: DescOneof;
  tools: ToolModel[];
}

interface Options {
  docs: boolean;
  /** Also emit `descriptors.ts`: the files' descriptors as compact literals (see generateDescriptorsTs). */
  descriptors: boolean;
}

const protocGenBatonVersion = "v0.1.0";
const SIDES = ["", "client", "backend"] as const;
const RISKS = ["", "read_only", "mutating", "irreversible"] as const;
const INT32 = { minimum: -2147483648, maximum: 2147483647 };
const UINT32 = { minimum: 0, maximum: 4294967295 };
const UINT64 = { minimum: 0 };

/** The Baton option extensions, found among the request's files. */
interface Extensions {
  tool: DescExtension;
  catalog: DescExtension;
  field: DescExtension;
  /** `(baton.v1.method)`; absent from an options.proto older than it. */
  method?: DescExtension;
}

/** The constraint values of `(baton.v1.field)`, as the dynamic message exposes them. */
interface Constraints {
  description: string;
  required: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  defaultJson: string;
  marksIrreversible: boolean;
}

function findExtensions(files: readonly DescFile[]): Extensions | undefined {
  const byName = new Map<string, DescExtension>();
  const walk = (exts: readonly DescExtension[]) => exts.forEach((e) => byName.set(e.typeName, e));
  for (const file of files) {
    walk(file.extensions);
  }
  const tool = byName.get("baton.v1.tool");
  const catalog = byName.get("baton.v1.catalog");
  const field = byName.get("baton.v1.field");
  return tool && catalog && field ? { tool, catalog, field, method: byName.get("baton.v1.method") } : undefined;
}

/** Collapses a proto comment into one model-facing paragraph. */
export function commentText(text: string | undefined): string {
  return (text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join(" ");
}

function constraintsOf(field: DescField, ext: Extensions): Constraints | undefined {
  if (!hasOption(field, ext.field)) {
    return undefined;
  }
  return getOption(field, ext.field) as unknown as Constraints;
}

function fieldDescription(field: DescField, c: Constraints | undefined): string {
  return c?.description || commentText(getComments(field).leading);
}

/** Builds the model-facing JSON Schema of a message; `errors` collects what codegen rejects. */
class SchemaBuilder {
  constructor(
    private readonly ext: Extensions,
    private readonly errors: string[],
  ) {}

  message(desc: DescMessage, stack: string[] = []): JsonSchema {
    if (stack.includes(desc.typeName)) {
      this.errors.push(`${desc.typeName} is recursive; tool parameters must be finite trees.`);
      return { type: "object" };
    }
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of desc.fields) {
      const c = constraintsOf(field, this.ext);
      const schema = this.field(field, c, [...stack, desc.typeName]);
      const description = fieldDescription(field, c);
      if (!description) {
        this.errors.push(
          `${desc.typeName}.${field.name} has no description: add a comment above it or (baton.v1.field).description.`,
        );
      }
      const oneof = field.oneof && !isSynthetic(field.oneof) ? field.oneof : undefined;
      const note = oneof ? ` Set at most one of: ${oneof.fields.map((f) => f.name).join(", ")}.` : "";
      properties[field.name] = { description: description + note, ...schema };
      if (c?.required) {
        required.push(field.name);
      }
    }
    return {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    };
  }

  private field(field: DescField, c: Constraints | undefined, stack: string[]): JsonSchema {
    const where = `${field.parent.typeName}.${field.name}`;
    const value = this.item(where, valueKind(field), c, stack);
    const schema: JsonSchema =
      field.fieldKind === "list"
        ? { type: "array", items: value, ...(c?.maxItems !== undefined ? { maxItems: c.maxItems } : {}) }
        : field.fieldKind === "map"
          ? { type: "object", additionalProperties: value }
          : value;
    if (c?.defaultJson) {
      try {
        return { ...schema, default: JSON.parse(c.defaultJson) as unknown };
      } catch {
        this.errors.push(`${where}: default_json ${JSON.stringify(c.defaultJson)} is not valid JSON.`);
      }
    }
    return schema;
  }

  /** The schema of one value (a singular field, a list item or a map value). */
  private item(
    where: string,
    kind: ValueKind,
    c: Constraints | undefined,
    stack: string[],
  ): JsonSchema {
    if ("enum" in kind) {
      return { type: "string", enum: modelEnumValues(kind.enum).map(modelEnumName) };
    }
    if ("message" in kind) {
      return this.wellKnown(where, kind.message) ?? this.message(kind.message, stack);
    }
    const lengths = {
      ...(c?.minLength !== undefined ? { minLength: c.minLength } : {}),
      ...(c?.maxLength !== undefined ? { maxLength: c.maxLength } : {}),
    };
    const range = (implicit: { minimum?: number; maximum?: number }) => ({
      ...((c?.minimum ?? implicit.minimum) !== undefined ? { minimum: c?.minimum ?? implicit.minimum } : {}),
      ...((c?.maximum ?? implicit.maximum) !== undefined ? { maximum: c?.maximum ?? implicit.maximum } : {}),
    });
    switch (kind.scalar) {
      case ScalarType.STRING:
        return { type: "string", ...lengths };
      case ScalarType.BYTES:
        return { type: "string", format: "byte", ...lengths };
      case ScalarType.BOOL:
        return { type: "boolean" };
      case ScalarType.DOUBLE:
      case ScalarType.FLOAT:
        return { type: "number", ...range({}) };
      case ScalarType.INT32:
      case ScalarType.SINT32:
      case ScalarType.SFIXED32:
        return { type: "integer", ...range(INT32) };
      case ScalarType.UINT32:
      case ScalarType.FIXED32:
        return { type: "integer", ...range(UINT32) };
      case ScalarType.UINT64:
      case ScalarType.FIXED64:
        return { type: "integer", ...range(UINT64) };
      default:
        return { type: "integer", ...range({}) };
    }
  }

  private wellKnown(where: string, desc: DescMessage): JsonSchema | undefined {
    switch (desc.typeName) {
      case "google.protobuf.Timestamp":
        return { type: "string", format: "date-time" };
      case "google.protobuf.Duration":
        return { type: "string", description: 'A duration in seconds with an "s" suffix, like "1.5s".' };
      case "google.protobuf.Any":
      case "google.protobuf.Struct":
      case "google.protobuf.Value":
      case "google.protobuf.ListValue":
        this.errors.push(`${where}: ${desc.typeName} cannot be described to a model; use a typed message.`);
        return { type: "object" };
      default:
        return undefined;
    }
  }
}

function isSynthetic(oneof: DescOneof): boolean {
  return oneof.fields.length === 1 && oneof.fields[0]?.proto.proto3Optional === true;
}

/** Reads every catalog in `file`; problems go to `errors` with the element that has them. */
export function readCatalogs(file: DescFile, ext: Extensions, errors: string[]): CatalogModel[] {
  const catalogs: CatalogModel[] = [];
  const messages: DescMessage[] = [];
  const walk = (list: readonly DescMessage[]) =>
    list.forEach((m) => {
      messages.push(m);
      walk(m.nestedMessages);
    });
  walk(file.messages);
  const byName = new Map(messages.map((m) => [m.typeName, m]));
  for (const call of messages) {
    if (!hasOption(call, ext.catalog)) {
      continue;
    }
    const opt = getOption(call, ext.catalog) as unknown as { results: string };
    const resultName = opt.results.includes(".") ? opt.results : `${file.proto.package}.${opt.results}`;
    const result = byName.get(resultName);
    const oneof = call.oneofs.find((o) => !isSynthetic(o));
    if (!result) {
      errors.push(`${call.typeName}: catalog.results names ${resultName}, which is not in ${file.name}.`);
      continue;
    }
    const resultOneof = result.oneofs.find((o) => !isSynthetic(o));
    if (!oneof || !resultOneof || call.oneofs.length !== 1 || result.oneofs.length !== 1) {
      errors.push(`${call.typeName} and ${result.typeName} must each have exactly one oneof.`);
      continue;
    }
    const results = new Map(resultOneof.fields.map((f) => [f.name, f]));
    const builder = new SchemaBuilder(ext, errors);
    const tools: ToolModel[] = [];
    for (const field of oneof.fields) {
      const params = field.message;
      const resultField = results.get(field.name);
      results.delete(field.name);
      if (!params || !resultField?.message) {
        errors.push(
          `${call.typeName}.${field.name}: every tool needs a params message and a ${result.typeName} case "${field.name}" with a result message.`,
        );
        continue;
      }
      if (!hasOption(params, ext.tool)) {
        errors.push(`${params.typeName} (tool ${field.name}) needs option (baton.v1.tool) with side and risk.`);
        continue;
      }
      const opt = getOption(params, ext.tool) as unknown as {
        description: string;
        side: number;
        risk: number;
        title: string;
        navigation: boolean;
      };
      const flags = params.fields.filter((fd) => constraintsOf(fd, ext)?.marksIrreversible);
      for (const fd of flags) {
        if (fd.fieldKind !== "scalar" || fd.scalar !== ScalarType.BOOL) {
          errors.push(`${params.typeName}.${fd.name}: marks_irreversible needs a singular bool field.`);
        }
      }
      if (flags.length > 1) {
        errors.push(`${params.typeName}: at most one field may set marks_irreversible.`);
      }
      const side = SIDES[opt.side];
      const risk = RISKS[opt.risk];
      const description = commentText(opt.description) || commentText(getComments(params).leading);
      if (!side || !risk) {
        errors.push(`${params.typeName} (tool ${field.name}): set both side and risk in (baton.v1.tool).`);
        continue;
      }
      if (!description) {
        errors.push(`${params.typeName} (tool ${field.name}) has no description: add a comment above the message.`);
      }
      tools.push({
        name: field.name,
        case: field.localName,
        title: opt.title || field.name.replaceAll("_", " "),
        description,
        side,
        risk,
        params,
        result: resultField.message,
        parameters: builder.message(params),
        ...(flags[0] ? { irreversibleFlag: flags[0].name } : {}),
        ...(opt.navigation ? { navigation: true } : {}),
      });
    }
    for (const extra of results.keys()) {
      errors.push(`${result.typeName}.${extra} has no matching tool in ${call.typeName}.`);
    }
    catalogs.push({ call, result, oneof, tools });
  }
  return catalogs;
}

function literal(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
}

function generateCatalogTs(f: GeneratedFile, catalog: CatalogModel, descriptors: string | undefined): void {
  const { call, result, oneof, tools } = catalog;
  // The schemas from descriptors.ts when it is generated, so a bundle holds one copy of the descriptors.
  const schemaOf = (d: DescMessage) => (descriptors ? f.import(f.importSchema(d).name, descriptors) : f.importSchema(d));
  const camel = (t: ToolModel) => t.case;
  f.print(f.jsDoc(`JSON Schema of each tool's parameters, as the model sees them.`));
  for (const t of tools) {
    f.print("const ", camel(t), "Parameters = ", literal(t.parameters, ""), " as const;");
  }
  f.print();
  // The routes first, then the whole catalog: the same tools, the catalog with the model-facing text.
  const printCatalog = (name: string, doc: string, modelText: boolean): void => {
    f.print(f.jsDoc(doc));
    f.print(f.export("const", name), " = {");
    f.print("  call: ", schemaOf(call), ",");
    f.print("  result: ", schemaOf(result), ",");
    f.print("  oneof: ", f.string(oneof.localName), ",");
    f.print("  tools: {");
    for (const t of tools) {
      f.print("    ", t.name, ": {");
      f.print("      name: ", f.string(t.name), ",");
      f.print("      case: ", f.string(t.case), ",");
      f.print("      title: ", f.string(t.title), ",");
      if (modelText) f.print("      description: ", f.string(t.description), ",");
      f.print("      side: ", f.string(t.side), ",");
      f.print("      risk: ", f.string(t.risk), ",");
      f.print("      params: ", schemaOf(t.params), ",");
      f.print("      result: ", schemaOf(t.result), ",");
      if (modelText) f.print("      parameters: ", camel(t), "Parameters,");
      if (t.irreversibleFlag) f.print("      irreversibleFlag: ", f.string(t.irreversibleFlag), ",");
      if (t.navigation) f.print("      navigation: true,");
      f.print("    },");
    }
    f.print("  },");
    f.print("} as const;");
    f.print();
  };
  printCatalog(
    "toolRoutes",
    `The routing half of the catalog of ${call.typeName}: each tool's name, case, title, side, risk and\n` +
      `params and result schemas, without descriptions or JSON Schemas. What a client needs to run calls\n` +
      `(\`runTask\`, \`dispatchToolCall\`), so a browser bundle that only runs tools leaves the model-facing text out.`,
    false,
  );
  printCatalog(
    "toolCatalog",
    `The tool catalog of ${call.typeName}, keyed by the snake_case tool name: description, side, risk,\n` +
      `params and result schemas, the JSON Schema of the parameters and the field name map.`,
    true,
  );
  f.print(f.jsDoc("Tool names: snake_case (what the model sees) → camelCase (the oneof case the code switches on)."));
  f.print(f.export("const", "toolCases"), " = ", literal(Object.fromEntries(tools.map((t) => [t.name, t.case])), ""), " as const;");
  f.print();
  f.print(f.jsDoc("Tool names: camelCase oneof case → snake_case model name."));
  f.print(f.export("const", "toolNames"), " = ", literal(Object.fromEntries(tools.map((t) => [t.case, t.name])), ""), " as const;");
  f.print();
  f.print(f.jsDoc("Parameter names per tool (snake_case tool name): snake_case field → camelCase field."));
  const fieldMap = Object.fromEntries(
    tools.map((t) => [t.name, Object.fromEntries(t.params.fields.map((fd) => [fd.name, fd.localName]))]),
  );
  f.print(f.export("const", "toolFieldNames"), " = ", literal(fieldMap, ""), " as const;");
  f.print();
  f.print(f.jsDoc("Function tools for the OpenAI Responses API (`responses.create({ tools })`)."));
  f.print(f.export("const", "openAiResponsesTools"), " = [");
  for (const t of tools) {
    f.print("  { type: \"function\", name: ", f.string(t.name), ", description: ", f.string(t.description), ", parameters: ", camel(t), "Parameters, strict: false },");
  }
  f.print("] as const;");
  f.print();
  f.print(f.jsDoc("Function tools for OpenAI Chat Completions and compatible servers (`chat.completions.create({ tools })`)."));
  f.print(f.export("const", "openAiChatTools"), " = [");
  for (const t of tools) {
    f.print("  { type: \"function\", function: { name: ", f.string(t.name), ", description: ", f.string(t.description), ", parameters: ", camel(t), "Parameters } },");
  }
  f.print("] as const;");
  f.print();
  f.print(f.jsDoc("Client tools for Anthropic's Messages API (`messages.create({ tools })`): the parameters as `input_schema`."));
  f.print(f.export("const", "anthropicTools"), " = [");
  for (const t of tools) {
    f.print("  { name: ", f.string(t.name), ", description: ", f.string(t.description), ", input_schema: ", camel(t), "Parameters },");
  }
  f.print("] as const;");
  f.print();
  f.print(f.jsDoc("Gemini `FunctionDeclaration`s (`@google/genai`, `config.tools[0].functionDeclarations`)."));
  f.print(f.export("const", "geminiFunctionDeclarations"), " = [");
  for (const t of tools) {
    f.print("  ", literal(geminiFunctionDeclaration(t), "  "), ",");
  }
  f.print("] as const;");
  f.print();
  f.print(f.jsDoc("MCP tools (`tools/list`): name, title, description, input schema, and read-only/destructive annotations from the risk."));
  f.print(f.export("const", "mcpTools"), " = [");
  for (const t of tools) {
    f.print("  { name: ", f.string(t.name), ", title: ", f.string(t.title), ", description: ", f.string(t.description), ", inputSchema: ", camel(t), "Parameters, annotations: ", JSON.stringify(mcpToolAnnotations(t)), " },");
  }
  f.print("] as const;");
  f.print();
  const callShape = f.importShape(call);
  const resultShape = f.importShape(result);
  const genMessage = f.import("GenMessage", "@bufbuild/protobuf/codegenv2", true);
  const initShape = f.import("MessageInitShape", "@bufbuild/protobuf", true);
  f.print(f.jsDoc("The camelCase case name of every tool, as the oneof spells it."));
  f.print(f.export("type", "ToolCase"), " = NonNullable<", callShape, "[", f.string(oneof.localName), "][\"case\"]>;");
  f.print(f.jsDoc("The snake_case name of every tool, as the model spells it."));
  f.print(f.export("type", "ToolName"), " = (typeof toolNames)[ToolCase];");
  f.print(f.jsDoc("The params message of tool case K."));
  f.print(f.export("type", "ToolParams"), "<K extends ToolCase> = Extract<", callShape, "[", f.string(oneof.localName), "], { case: K }>[\"value\"];");
  f.print(f.jsDoc("The result message of tool case K."));
  f.print(f.export("type", "ToolResultOf"), "<K extends ToolCase> = Extract<", resultShape, "[", f.string(result.oneofs[0]!.localName), "], { case: K }>[\"value\"];");
  const union = (side: string) => {
    const names = tools.filter((t) => t.side === side).map((t) => JSON.stringify(t.case));
    return names.length > 0 ? names.join(" | ") : "never";
  };
  f.print(f.jsDoc("Tools the client (the browser side) executes."));
  f.print(f.export("type", "ClientToolCase"), " = ", union("client"), ";");
  f.print(f.jsDoc("Tools the backend executes inline."));
  f.print(f.export("type", "BackendToolCase"), " = ", union("backend"), ";");
  f.print(
    f.jsDoc(
      "A handler for every tool in `Cases`, keyed by camelCase case name. Derived from the oneof, so a\n" +
        "tool added to the proto without a handler is a compile error. A handler returns the result\n" +
        "(or its init shape); throwing is turned into a ToolError by the SDK dispatcher.",
    ),
  );
  f.print(f.export("type", "ToolHandlers"), "<Ctx = void, Cases extends ToolCase = ToolCase> = {");
  f.print("  [K in Cases]: (params: ToolParams<K>, ctx: Ctx) => Promise<", initShape, "<", genMessage, "<ToolResultOf<K>>>>;");
  f.print("};");
  f.print(f.jsDoc("Handlers for every client-side tool."));
  f.print(f.export("type", "ClientToolHandlers"), "<Ctx = void> = ToolHandlers<Ctx, ClientToolCase>;");
  f.print(f.jsDoc("Handlers for every backend-side tool."));
  f.print(f.export("type", "BackendToolHandlers"), "<Ctx = void> = ToolHandlers<Ctx, BackendToolCase>;");
}

/** One field as `descriptors.ts` spells it: name, number, type, type name, label, oneof index + 1, proto3 optional. */
type FieldLit = [string, number, number, (string | 0)?, number?, number?, 1?];
/** One message: name, fields, nested messages, enums, oneof names, map entry (0 stands for an empty slot). */
type MessageLit = [string, FieldLit[], (MessageLit[] | 0)?, (EnumLit[] | 0)?, (string[] | 0)?, 1?];
/** One enum: name, then each value's name and number. */
type EnumLit = [string, (string | number)[]];
/** One service: name, then each method's name, input, output and streaming (1 client, 2 server). */
type ServiceLit = [string, [string, string, string, number?][]];
/** One file: its messages, enums and services. */
interface FileLit {
  messages: MessageLit[];
  enums: EnumLit[];
  services: ServiceLit[];
}

/** Drops trailing elements that are unset (undefined, 0 or an empty list) and writes 0 for an empty one before a set one. */
function trimmed<T extends unknown[]>(items: T): T {
  const empty = (x: unknown) => x === undefined || x === 0 || x === "" || (Array.isArray(x) && x.length === 0);
  const out = [...items];
  while (out.length > 2 && empty(out.at(-1))) out.pop();
  return out.map((x, i) => (i >= 2 && empty(x) ? 0 : x)) as T;
}

/**
 * The compact literal of one proto3 file: what protobuf-es's registry reads to build the same
 * descriptors as the `*_pb.ts` file's embedded FileDescriptorProto. Options and extensions are
 * left out (Baton's are codegen input, as buf.gen.yaml's exclude_types leaves them out of the
 * `*_pb.ts`); what would change the runtime descriptors and is not spelled here is rejected.
 */
function fileLiteral(file: DescFile, errors: string[]): FileLit {
  const pkg = `.${file.proto.package}.`;
  const typeName = (t: string) => (t.startsWith(pkg) ? t.slice(pkg.length) : t);
  if (file.proto.syntax !== "proto3") errors.push(`${file.proto.name}: the descriptors option supports proto3 files only.`);
  const enumLit = (e: EnumDescriptorProto): EnumLit => [e.name, e.value.flatMap((v) => [v.name, v.number])];
  const fieldLit = (parent: string, fd: FieldDescriptorProto): FieldLit => {
    const where = `${parent}.${fd.name}`;
    const o = fd.options;
    if (o && (isFieldSet(o, FieldOptionsSchema.field.jstype) || isFieldSet(o, FieldOptionsSchema.field.packed) || o.features)) {
      errors.push(`${where}: jstype, packed and features change the runtime field; the descriptors option does not spell them.`);
    }
    if (isFieldSet(fd, FieldDescriptorProtoSchema.field.defaultValue) || fd.label === 2 || fd.type === 10) {
      errors.push(`${where}: defaults, required and group fields are proto2; the descriptors option supports proto3.`);
    }
    if (isFieldSet(fd, FieldDescriptorProtoSchema.field.jsonName) && fd.jsonName !== protoCamelCase(fd.name)) {
      errors.push(`${where}: a custom json_name is not supported by the descriptors option.`);
    }
    const oneof = isFieldSet(fd, FieldDescriptorProtoSchema.field.oneofIndex) ? fd.oneofIndex + 1 : undefined;
    return trimmed<FieldLit>([fd.name, fd.number, fd.type, typeName(fd.typeName), fd.label === 1 ? undefined : fd.label, oneof, fd.proto3Optional ? 1 : undefined]);
  };
  // From the DescriptorProtos, not the DescMessages: those leave out the synthetic map entries.
  const messageLit = (m: DescriptorProto, parent: string): MessageLit =>
    trimmed<MessageLit>([
      m.name,
      m.field.map((fd) => fieldLit(`${parent}.${m.name}`, fd)),
      m.nestedType.map((n) => messageLit(n, `${parent}.${m.name}`)),
      m.enumType.map(enumLit),
      m.oneofDecl.map((o) => o.name),
      m.options?.mapEntry ? 1 : undefined,
    ]);
  return {
    messages: file.proto.messageType.map((m) => messageLit(m, file.proto.package)),
    enums: file.proto.enumType.map(enumLit),
    services: file.services.map((s): ServiceLit => [
      s.name,
      s.methods.map((md) => {
        if (md.proto.options && isFieldSet(md.proto.options, MethodOptionsSchema.field.idempotencyLevel)) {
          errors.push(`${s.typeName}.${md.name}: idempotency_level changes how Connect calls it; the descriptors option does not spell it.`);
        }
        const streaming = (md.proto.clientStreaming ? 1 : 0) + (md.proto.serverStreaming ? 2 : 0);
        return trimmed<[string, string, string, number?]>([md.name, typeName(md.proto.inputType), typeName(md.proto.outputType), streaming || undefined]);
      }),
    ]),
  };
}

/** Where generateDescriptorsTs writes, as an import path from the output root. */
function descriptorsPath(files: readonly DescFile[]): string {
  return `./${files[0]!.proto.name.replace(/[^/]*$/, "")}descriptors.js`;
}

/** The path of a message, enum or service in its file, as `messageDesc`, `enumDesc` and `serviceDesc` take it. */
function pathInFile(desc: DescMessage | DescEnum | DescService): number[] {
  if (desc.kind === "service") return [desc.file.services.indexOf(desc)];
  const up = (m: DescMessage): number[] => (m.parent ? [...up(m.parent), m.parent.nestedMessages.indexOf(m)] : [m.file.messages.indexOf(m)]);
  if (desc.kind === "message") return up(desc);
  return desc.parent ? [...up(desc.parent), desc.parent.nestedEnums.indexOf(desc)] : [desc.file.enums.indexOf(desc)];
}

/** The files a file's runtime descriptors refer to, in import order (the imports its options alone need are left out). */
function runtimeDeps(file: DescFile): DescFile[] {
  const deps = new Set<DescFile>();
  for (const t of nestedTypes(file)) {
    if (t.kind === "message") for (const fd of t.fields) deps.add((fd.message ?? fd.enum ?? { file }).file);
    if (t.kind === "service") for (const md of t.methods) deps.add(md.input.file).add(md.output.file);
  }
  return file.dependencies.filter((d) => deps.has(d));
}

/**
 * Emits `<dir>/descriptors.ts` (option `descriptors`): every file's descriptors as a compact
 * object literal, hydrated with protobuf-es's public `createFileRegistry`, and every message,
 * enum, service and file under the same name and type as in the `*_pb.ts`. The `*_pb.ts` embed
 * base64 FileDescriptorProtos, which gzip poorly and which `fileDesc()` decodes at load; a browser
 * bundle that takes its descriptors from here carries a literal that gzips far better (the
 * client's bundle, docs/benchmarks.md). Imports outside the generated files (the well-known
 * types) come from their `*_pb` as usual.
 */
function generateDescriptorsTs(schema: Schema<Options>, errors: string[]): void {
  const files = schema.files;
  const dirs = new Set(files.map((f) => f.proto.name.replace(/[^/]*$/, "")));
  if (dirs.size !== 1) {
    errors.push(`the descriptors option writes one module per directory; these files are in ${dirs.size}: ${[...dirs].join(", ")}`);
    return;
  }
  const f = schema.generateFile(descriptorsPath(files).replace(/^\.\/|\.js$/g, "") + ".ts");
  f.print(`// @generated by protoc-gen-baton ${protocGenBatonVersion} with parameter "descriptors" from ${files.map((x) => x.proto.name).join(", ")}`);
  f.print("/* eslint-disable */");
  f.print();
  const createFileRegistry = f.import("createFileRegistry", "@bufbuild/protobuf");
  const DescFileT = f.import("DescFile", "@bufbuild/protobuf", true);
  const FileDescriptorProtoT = f.import("FileDescriptorProto", "@bufbuild/protobuf/wkt", true);
  const camel = f.import("protoCamelCase", "@bufbuild/protobuf/reflect");
  f.print(f.jsDoc(
    "A file as a literal: name, package, messages, enums, services. A message is [name, fields,\n" +
      "nested messages, nested enums, oneof names, 1 if a map entry]; a field [name, number, type,\n" +
      "type name (relative to the package when inside it), label, oneof index + 1, 1 if proto3\n" +
      "optional]; an enum [name, [value name, number, …]]; a service [name, [[method, input, output,\n" +
      "streaming: 1 client, 2 server], …]]. 0 or a missing element is unset.",
  ));
  f.print("type Lit = [string, string, M[], E[]?, [string, [string, string, string, number?][]][]?];");
  f.print("type M = [string, F[], (M[] | 0)?, (E[] | 0)?, (string[] | 0)?, 1?];");
  f.print("type F = [string, number, number, (string | 0)?, number?, number?, 1?];");
  f.print("type E = [string, (string | number)[]];");
  f.print();
  f.print(f.jsDoc("Builds a file's FileDescriptorProto from its literal and its registry with protobuf-es's `createFileRegistry`."));
  f.print("function hydrate([name, pkg, messages, enums = [], services = []]: Lit, deps: ", DescFileT, "[]): ", DescFileT, " {");
  f.print("  const type = (t?: string | 0) => (!t ? \"\" : t[0] !== \".\" ? `.${pkg}.${t}` : t);");
  f.print("  const enumType = ([name, v]: E) => ({ name, value: v.flatMap((x, i) => (i % 2 ? [] : [{ name: x, number: v[i + 1] }])) });");
  f.print("  const field = ([name, number, t, typeName, label, oneof, opt]: F) => ({");
  f.print("    name, number, type: t, typeName: type(typeName), label: label || 1, jsonName: ", camel, "(name), proto3Optional: !!opt, extendee: \"\",");
  f.print("    ...(oneof ? { oneofIndex: oneof - 1 } : {}),");
  f.print("  });");
  f.print("  const message = ([name, fields, nested, enums, oneofs, mapEntry]: M): object => ({");
  f.print("    name, field: fields.map(field), nestedType: (nested || []).map(message), enumType: (enums || []).map(enumType),");
  f.print("    oneofDecl: (oneofs || []).map((name) => ({ name })), extension: [], extensionRange: [], reservedRange: [], reservedName: [],");
  f.print("    ...(mapEntry ? { options: { mapEntry: true } } : {}),");
  f.print("  });");
  f.print("  const proto = {");
  f.print("    $typeName: \"google.protobuf.FileDescriptorProto\", name, package: pkg, syntax: \"proto3\", edition: 0,");
  f.print("    dependency: deps.map((d) => d.proto.name), publicDependency: [], weakDependency: [], optionDependency: [], extension: [],");
  f.print("    messageType: messages.map(message), enumType: enums.map(enumType),");
  f.print("    service: services.map(([name, methods]) => ({");
  f.print("      name, method: methods.map(([name, i, o, s = 0]) => ({ name, inputType: type(i), outputType: type(o), clientStreaming: !!(s & 1), serverStreaming: !!(s & 2) })),");
  f.print("    })),");
  f.print("  } as unknown as ", FileDescriptorProtoT, ";");
  f.print("  return ", createFileRegistry, "(proto, (n) => deps.find((d) => d.proto.name === n)).getFile(name)!;");
  f.print("}");
  // Each file after the files it refers to.
  const ordered: DescFile[] = [];
  const visit = (file: DescFile) => {
    if (ordered.includes(file) || !files.includes(file)) return;
    runtimeDeps(file).forEach(visit);
    ordered.push(file);
  };
  files.forEach(visit);
  const fileName = (file: DescFile) => f.importSchema(file).name;
  for (const file of ordered) {
    const lit = fileLiteral(file, errors);
    const deps = runtimeDeps(file).map((d) => (files.includes(d) ? fileName(d) : f.importSchema(d)));
    f.print();
    f.print(f.jsDoc(`The descriptors of ${file.proto.name}.`));
    f.print(f.export("const", fileName(file)), ": typeof ", f.importSchema(file, true), " = /*@__PURE__*/ hydrate([");
    f.print("  ", JSON.stringify(file.proto.name), ", ", JSON.stringify(file.proto.package), ", [");
    for (const m of lit.messages) f.print("    ", JSON.stringify(m), ",");
    f.print("  ], ", JSON.stringify(lit.enums), ", ", JSON.stringify(lit.services), "], [", ...deps.flatMap((d, i) => (i ? [", ", d] : [d])), "]);");
    for (const t of nestedTypes(file)) {
      if (t.kind !== "message" && t.kind !== "enum" && t.kind !== "service") continue;
      if (t.kind === "message" && t.proto.options?.mapEntry) continue;
      const fn = t.kind === "message" ? "messageDesc" : t.kind === "enum" ? "enumDesc" : "serviceDesc";
      const desc = f.import(fn, "@bufbuild/protobuf/codegenv2");
      f.print(f.export("const", f.importSchema(t).name), ": typeof ", f.importSchema(t, true), " = /*@__PURE__*/ ", desc, "(", fileName(file), ", ", pathInFile(t).join(", "), ");");
    }
  }
}

/** The limit values of a field's `(baton.v1.field)`, those set and not default; the description is left out. */
function fieldLimits(c: Constraints): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (c.required) out.required = true;
  for (const k of ["minimum", "maximum", "minLength", "maxLength", "maxItems"] as const) {
    if (c[k] !== undefined) out[k] = c[k];
  }
  if (c.defaultJson) out.defaultJson = c.defaultJson;
  if (c.marksIrreversible) out.marksIrreversible = true;
  return out;
}

/**
 * Emits `<file>_limits.ts` when the file's fields or RPCs carry limits: `fieldLimits` (message
 * type name → field name → limits) and `methodLimits` (`package.Service.Method` → limits).
 */
function generateLimitsTs(schema: Schema<Options>, file: DescFile, ext: Extensions, stem: string): void {
  const fields: Record<string, Record<string, Record<string, unknown>>> = {};
  const methods: Record<string, Record<string, unknown>> = {};
  let constraintsDesc: DescMessage | undefined;
  let methodDesc: DescMessage | undefined;
  for (const t of nestedTypes(file)) {
    if (t.kind === "message") {
      for (const fd of t.fields) {
        const c = constraintsOf(fd, ext);
        if (!c) continue;
        constraintsDesc = ext.field.message;
        (fields[t.typeName] ??= {})[fd.name] = fieldLimits(c);
      }
    } else if (t.kind === "service" && ext.method) {
      const m = ext.method;
      for (const rpc of (t as DescService).methods) {
        if (!hasOption(rpc, m)) continue;
        methodDesc = m.message;
        const opt = getOption(rpc, m) as unknown as { maxRequestBytes: number; access?: number[] };
        methods[`${t.typeName}.${rpc.name}`] = {
          ...(opt.maxRequestBytes > 0 ? { maxRequestBytes: opt.maxRequestBytes } : {}),
          ...(opt.access?.length ? { access: [...opt.access] } : {}),
        };
      }
    }
  }
  if (!constraintsDesc && !methodDesc) return;
  const f = schema.generateFile(`${stem}_limits.ts`);
  f.preamble(file);
  const shape = (d: DescMessage | undefined) =>
    d ? ["Readonly<Partial<Omit<", f.importShape(d), ", \"$typeName\" | \"$unknown\">>>"] : ["Readonly<Record<string, never>>"];
  f.print(f.jsDoc("The limits of one field, from its `(baton.v1.field)` option (the description left out)."));
  f.print(f.export("type", "FieldLimits"), " = ", ...shape(constraintsDesc), ";");
  f.print(f.jsDoc("The limits of one RPC, from its `(baton.v1.method)` option."));
  f.print(f.export("type", "MethodLimits"), " = ", ...shape(methodDesc), ";");
  f.print();
  f.print(f.jsDoc(`Field limits of ${file.name}: message type name → proto field name → limits.`));
  f.print(f.export("const", "fieldLimits"), ": { readonly [message: string]: { readonly [field: string]: FieldLimits } } = ", literal(fields, ""), ";");
  f.print();
  f.print(f.jsDoc(`RPC limits of ${file.name}: \`package.Service.Method\` → limits.`));
  f.print(f.export("const", "methodLimits"), ": { readonly [method: string]: MethodLimits } = ", literal(methods, ""), ";");
}

function mdCell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function schemaType(s: JsonSchema): string {
  if (s.type === "array") return `${s.items ? schemaType(s.items) : "any"}[]`;
  if (s.enum) return s.enum.map((e) => `\`${e}\``).join(" \\| ");
  return s.type ?? "object";
}

function schemaLimits(s: JsonSchema): string {
  const inner = s.type === "array" && s.items ? s.items : s;
  const parts: string[] = [];
  if (inner.minimum !== undefined && inner.maximum !== undefined) parts.push(`${inner.minimum}–${inner.maximum}`);
  else if (inner.minimum !== undefined) parts.push(`≥ ${inner.minimum}`);
  else if (inner.maximum !== undefined) parts.push(`≤ ${inner.maximum}`);
  if (inner.minLength !== undefined) parts.push(`min length ${inner.minLength}`);
  if (inner.maxLength !== undefined) parts.push(`max length ${inner.maxLength}`);
  if (s.maxItems !== undefined) parts.push(`max ${s.maxItems} items`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join(", ");
}

function generateCatalogMd(f: GeneratedFile, file: DescFile, catalog: CatalogModel): void {
  const { tools } = catalog;
  f.print(`<!-- @generated by protoc-gen-baton from ${file.proto.name}; edit the proto, then run \`npm run gen\`. -->`);
  f.print();
  f.print(`# Tool reference: \`${catalog.call.typeName}\``);
  f.print();
  f.print(
    `${tools.length} tools. Names are what the model sees (snake_case); code switches on the camelCase oneof case. ` +
      "Side says who executes a call; risk drives approval policies.",
  );
  f.print();
  f.print("| tool | case | side | risk | summary |");
  f.print("|---|---|---|---|---|");
  for (const t of tools) {
    const summary = t.description.split(/(?<=\.)\s/)[0] ?? t.description;
    f.print(`| [\`${t.name}\`](#${t.name}) | \`${t.case}\` | ${t.side} | ${t.risk} | ${mdCell(summary)} |`);
  }
  for (const t of tools) {
    f.print();
    f.print(`## ${t.name}`);
    f.print();
    f.print(`${t.description}`);
    f.print();
    const escalation = t.irreversibleFlag ? ` (irreversible when \`${t.irreversibleFlag}\` is true)` : "";
    const navigation = t.navigation ? " Navigation: it works on tabs, not inside a page; where it goes is the URL policy's question, and neither a read-only site nor a page the policy would not load refuses it." : "";
    f.print(`Side: ${t.side}. Risk: ${t.risk}${escalation}.${navigation} Params: \`${t.params.typeName}\`. Result: \`${t.result.typeName}\`.`);
    f.print();
    const props = Object.entries(t.parameters.properties ?? {});
    if (props.length === 0) {
      f.print("No parameters.");
    } else {
      f.print("| parameter | type | required | limits | description |");
      f.print("|---|---|---|---|---|");
      for (const [name, s] of props) {
        const req = t.parameters.required?.includes(name) ? "yes" : "";
        f.print(`| \`${name}\` | ${schemaType(s)} | ${req} | ${mdCell(schemaLimits(s))} | ${mdCell(s.description ?? "")} |`);
      }
    }
    f.print();
    f.print("| result field | description |");
    f.print("|---|---|");
    for (const field of t.result.fields) {
      f.print(`| \`${field.name}\` | ${mdCell(commentText(getComments(field).leading))} |`);
    }
  }
}

function generate(schema: Schema<Options>): void {
  const ext = findExtensions(schema.allFiles);
  if (!ext) {
    return;
  }
  const errors: string[] = [];
  if (schema.options.descriptors && !schema.options.docs) {
    generateDescriptorsTs(schema, errors);
  }
  for (const file of schema.files) {
    const stem = file.name.replace(/\.proto$/, "");
    if (!schema.options.docs) {
      generateLimitsTs(schema, file, ext, stem);
    }
    const catalogs = readCatalogs(file, ext, errors);
    if (catalogs.length > 1) {
      errors.push(`${file.name} declares ${catalogs.length} catalogs; put each catalog in its own file.`);
      continue;
    }
    const catalog = catalogs[0];
    if (!catalog) {
      continue;
    }
    if (schema.options.docs) {
      generateCatalogMd(schema.generateFile(`${stem.split("/").pop()}.md`), file, catalog);
    } else {
      const f = schema.generateFile(`${stem}_baton.ts`);
      f.preamble(file);
      const { call, result, tools } = catalog;
      const inSet = schema.options.descriptors && [call, result, ...tools.flatMap((t) => [t.params, t.result])].every((d) => schema.files.includes(d.file));
      generateCatalogTs(f, catalog, inSet ? descriptorsPath(schema.files) : undefined);
    }
  }
  if (errors.length > 0) {
    throw new Error(`protoc-gen-baton found ${errors.length} problem(s):\n- ${errors.join("\n- ")}`);
  }
}

/** The plugin. `runNodeJs(protocGenBaton)` runs it under protoc or buf. */
export const protocGenBaton = createEcmaScriptPlugin<Options>({
  name: "protoc-gen-baton",
  version: protocGenBatonVersion,
  parseOptions(raw) {
    const options: Options = { docs: false, descriptors: false };
    for (const { key, value } of raw) {
      if ((key === "docs" || key === "descriptors") && (value === "" || value === "true")) {
        options[key] = true;
      } else {
        throw new Error(`protoc-gen-baton: unknown option "${key}${value ? `=${value}` : ""}" (known: docs, descriptors).`);
      }
    }
    return options;
  },
  generateTs: generate,
});

const invokedPath = process.argv[1] ? realpathSync(process.argv[1]) : "";
if (invokedPath === fileURLToPath(import.meta.url)) {
  runNodeJs(protocGenBaton);
}
