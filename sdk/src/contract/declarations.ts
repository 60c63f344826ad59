import type { JsonSchema } from "./json-schema.js";

/** What a model is told about one tool: enough to declare it to any provider. */
export interface DeclaredTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

/** Gemini's OpenAPI-subset Schema, as `@google/genai` types it (64-bit counts as strings). */
export interface GeminiSchema {
  type: "OBJECT" | "ARRAY" | "STRING" | "INTEGER" | "NUMBER" | "BOOLEAN";
  description?: string;
  properties?: Record<string, GeminiSchema>;
  required?: string[];
  items?: GeminiSchema;
  enum?: string[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: string;
  maxLength?: string;
  minItems?: string;
  maxItems?: string;
  default?: unknown;
}

/** Converts an emitted JSON Schema into Gemini's Schema (which has no additionalProperties). */
export function toGeminiSchema(s: JsonSchema): GeminiSchema {
  const out: GeminiSchema = { type: (s.type ?? "object").toUpperCase() as GeminiSchema["type"] };
  if (s.description) out.description = s.description;
  if (s.enum) out.enum = [...s.enum];
  if (s.format === "date-time") out.format = s.format;
  if (s.minimum !== undefined) out.minimum = s.minimum;
  if (s.maximum !== undefined) out.maximum = s.maximum;
  if (s.minLength !== undefined) out.minLength = String(s.minLength);
  if (s.maxLength !== undefined) out.maxLength = String(s.maxLength);
  if (s.minItems !== undefined) out.minItems = String(s.minItems);
  if (s.maxItems !== undefined) out.maxItems = String(s.maxItems);
  if (s.default !== undefined) out.default = s.default;
  if (s.items) out.items = toGeminiSchema(s.items);
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toGeminiSchema(v)]));
  }
  if (s.required) out.required = [...s.required];
  return out;
}

/** A function tool for the OpenAI Responses API. */
export function openAiResponsesTool(t: DeclaredTool) {
  return { type: "function" as const, name: t.name, description: t.description, parameters: t.parameters, strict: false };
}

/** A function tool for OpenAI Chat Completions and compatible servers. */
export function openAiChatTool(t: DeclaredTool) {
  return { type: "function" as const, function: { name: t.name, description: t.description, parameters: t.parameters } };
}

/** A client tool for Anthropic's Messages API (`messages.create({ tools })`): the parameters are its `input_schema`. */
export function anthropicTool(t: DeclaredTool) {
  return { name: t.name, description: t.description, input_schema: t.parameters };
}

/** A Gemini `FunctionDeclaration`. */
export function geminiFunctionDeclaration(t: DeclaredTool) {
  return { name: t.name, description: t.description, parameters: toGeminiSchema(t.parameters) };
}

/** What an MCP tool listing needs beyond a declaration: the title and the risk. */
export interface McpDeclaredTool extends DeclaredTool {
  readonly title: string;
  readonly risk: "read_only" | "mutating" | "irreversible";
  /** A bool field that makes one call irreversible (a click that places an order). */
  readonly irreversibleFlag?: string;
}

/**
 * MCP tool annotations from the catalog's risk: read-only tools say so; a tool is destructive
 * when it is irreversible, or when a call can be (its `marks_irreversible` flag); other
 * mutating tools only add to the page's state as far as the client can tell.
 */
export function mcpToolAnnotations(t: Pick<McpDeclaredTool, "title" | "risk" | "irreversibleFlag">) {
  return t.risk === "read_only"
    ? { title: t.title, readOnlyHint: true }
    : { title: t.title, readOnlyHint: false, destructiveHint: t.risk === "irreversible" || t.irreversibleFlag !== undefined };
}

/** An MCP `Tool` (`tools/list`): name, title, description, input schema and annotations. */
export function mcpTool(t: McpDeclaredTool) {
  return { name: t.name, title: t.title, description: t.description, inputSchema: t.parameters, annotations: mcpToolAnnotations(t) };
}
