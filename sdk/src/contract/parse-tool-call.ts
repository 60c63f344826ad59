import { create, fromJson, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { ToolError } from "@baton/gen/baton/v1/agent_pb";
import { type Catalog, findTool, type ToolSpec } from "./catalog.js";
import type { JsonSchema } from "./json-schema.js";
import { type ArgLimits, type ArgProblem, defaultArgLimits, readArgs } from "./read-args.js";
import { closest } from "./suggest.js";
import { ToolErrorCode, toolError } from "./tool-error.js";

/** The outcome of reading a model's tool call: a typed call, or a ToolError for the model. */
export type ParsedToolCall<C extends Catalog> =
  | { readonly ok: true; readonly tool: ToolSpec; readonly call: MessageShape<C["call"]> }
  | { readonly ok: false; readonly error: ToolError };

/** Limits for {@link parseToolCall}. */
export interface ParseLimits extends ArgLimits {
  /** Longest raw argument string accepted, in characters. */
  readonly maxArgsChars: number;
}

/** Defaults for {@link ParseLimits}: 256 KiB of arguments, 100,000-character strings. */
export const defaultParseLimits: ParseLimits = { ...defaultArgLimits, maxArgsChars: 256 * 1024 };

/**
 * An example argument object built from the schema's required fields, to show the model what a
 * valid call looks like.
 */
export function exampleArgs(schema: JsonSchema): string {
  const example: Record<string, unknown> = {};
  const first = Object.keys(schema.properties ?? {})[0];
  const names = schema.required?.length ? schema.required : first ? [first] : [];
  for (const name of names) {
    const s = schema.properties?.[name];
    example[name] =
      s?.enum?.[0] ??
      (s?.type === "integer" || s?.type === "number"
        ? (s.minimum ?? 1)
        : s?.type === "boolean"
          ? true
          : s?.type === "array"
            ? [s.items?.enum?.[0] ?? "..."]
            : s?.type === "object"
              ? {}
              : "...");
  }
  return JSON.stringify(example);
}

function shortPath(path: string): string {
  return path.length > 60 ? `${path.slice(0, 60)}…` : path;
}

function invalid(tool: ToolSpec, problems: ArgProblem[], limits: ArgLimits): ToolError {
  const shown = problems
    .slice(0, limits.maxProblems)
    .map((p) => (p.path ? `"${shortPath(p.path)}" ${p.message}` : p.message));
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : "";
  const lists = new Map<string, readonly string[]>();
  for (const p of problems) {
    if (p.validFields) lists.set(p.path.includes(".") ? p.path.slice(0, p.path.lastIndexOf(".")) : "", p.validFields);
  }
  const valid = [...lists].map(([at, fields]) =>
    fields.length === 0
      ? ` "${tool.name}" takes no arguments.`
      : ` Valid fields${at ? ` of "${shortPath(at)}"` : ""}: ${fields.join(", ")}.`,
  );
  const message =
    `Invalid arguments for tool "${tool.name}": ${shown.join("; ")}${more}.${valid.join("")} ` +
    `Fix them and call "${tool.name}" again, for example with ${exampleArgs(tool.parameters)}.`;
  return toolError(ToolErrorCode.INVALID_ARGUMENTS, message, {
    tool: tool.name,
    field: shortPath(problems[0]?.path ?? ""),
  });
}

function decodeArgs(tool: ToolSpec, args: unknown, limits: ParseLimits): { value: unknown } | { error: ToolError } {
  if (typeof args !== "string") {
    return { value: args ?? {} };
  }
  if (args.length > limits.maxArgsChars) {
    return {
      error: toolError(
        ToolErrorCode.INVALID_ARGUMENTS,
        `Arguments for tool "${tool.name}" are ${args.length} characters; the limit is ${limits.maxArgsChars}. ` +
          "Send shorter arguments (for long text, split the work into several calls).",
        { tool: tool.name },
      ),
    };
  }
  const text = args.trim();
  if (text === "") {
    return { value: {} };
  }
  try {
    let value: unknown = JSON.parse(text);
    // Some models double-encode: the arguments arrive as a JSON string holding the object.
    if (typeof value === "string" && value.trim().startsWith("{")) {
      value = JSON.parse(value);
    }
    return { value };
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return {
      error: toolError(
        ToolErrorCode.INVALID_ARGUMENTS,
        `Arguments for tool "${tool.name}" are not valid JSON (${reason.slice(0, 200)}). ` +
          `Send one JSON object, for example ${exampleArgs(tool.parameters)}.`,
        { tool: tool.name },
      ),
    };
  }
}

/**
 * Turns a model's tool name and arguments (a JSON string or an already-parsed value) into a
 * typed call of `catalog`. Never throws: an unknown tool, malformed JSON, an unknown field, a
 * wrong type, a missing required field or an out-of-range value becomes a `ToolError` whose
 * message names the tool and the field and says what is valid, so the model can correct itself.
 */
export function parseToolCall<C extends Catalog>(
  catalog: C,
  name: string,
  args: unknown,
  limits: ParseLimits = defaultParseLimits,
): ParsedToolCall<C> {
  const names = Object.keys(catalog.tools);
  const tool = typeof name === "string" ? findTool(catalog, name) : undefined;
  if (!tool) {
    const shown = typeof name === "string" ? JSON.stringify(name.slice(0, 80)) : String(name);
    const guess = typeof name === "string" ? closest(name, names) : undefined;
    return {
      ok: false,
      error: toolError(
        ToolErrorCode.UNKNOWN_TOOL,
        `There is no tool named ${shown}.${guess ? ` Did you mean "${guess}"?` : ""} Available tools: ${names.join(", ")}.`,
        { tool: typeof name === "string" ? name.slice(0, 80) : "" },
      ),
    };
  }
  const decoded = decodeArgs(tool, args, limits);
  if ("error" in decoded) {
    return { ok: false, error: decoded.error };
  }
  const problems: ArgProblem[] = [];
  const json = readArgs(tool.params, tool.parameters, decoded.value, "", problems, limits);
  if (problems.length > 0) {
    return { ok: false, error: invalid(tool, problems, limits) };
  }
  try {
    const params = fromJson(tool.params, json);
    const call = create(catalog.call as DescMessage, { [catalog.oneof]: { case: tool.case, value: params } });
    return { ok: true, tool, call: call as MessageShape<C["call"]> };
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return { ok: false, error: invalid(tool, [{ path: "", message: reason }], limits) };
  }
}
