import type { DescMessage, Message } from "@bufbuild/protobuf";
import type { JsonSchema } from "./json-schema.js";

/** Who executes a tool: the client that owns the browser, or the backend. */
export type ToolSide = "client" | "backend";

/** A tool's risk class; approval policies key on it. */
export type ToolRisk = "read_only" | "mutating" | "irreversible";

/** One tool of a generated catalog (`toolCatalog.tools.<name>` in a `*_baton.ts` file). */
export interface ToolSpec {
  /** snake_case name the model sees. */
  readonly name: string;
  /** camelCase oneof case the code switches on. */
  readonly case: string;
  /** Short human label for progress UIs. */
  readonly title: string;
  /** Model-facing description. */
  readonly description: string;
  readonly side: ToolSide;
  readonly risk: ToolRisk;
  /** The params message descriptor. */
  readonly params: DescMessage;
  /** The result message descriptor. */
  readonly result: DescMessage;
  /** JSON Schema of the params, as given to the model. */
  readonly parameters: JsonSchema;
  /** A bool params field (snake_case) that, when true, makes the call irreversible. */
  readonly irreversibleFlag?: string;
}

/** A generated tool catalog: the call and result oneof messages and their tools. */
export interface Catalog<Call extends DescMessage = DescMessage, Result extends DescMessage = DescMessage> {
  readonly call: Call;
  readonly result: Result;
  /** localName of the oneof in both `call` and `result`. */
  readonly oneof: string;
  readonly tools: Readonly<Record<string, ToolSpec>>;
}

const indexes = new WeakMap<Catalog, Map<string, ToolSpec>>();

/** Canonical key for lenient tool-name matching: `functions.TakeSnapshot` → `takesnapshot`. */
function nameKey(name: string): string {
  return name
    .trim()
    .replace(/^functions\./, "")
    .replace(/[-_\s]/g, "")
    .toLowerCase();
}

/**
 * Finds a tool by the name a model used: the snake_case name, the camelCase case name, or the
 * same ignoring case, dashes and a `functions.` prefix. Undefined when nothing matches.
 */
export function findTool(catalog: Catalog, name: string): ToolSpec | undefined {
  const exact = catalog.tools[name];
  if (exact) {
    return exact;
  }
  let index = indexes.get(catalog);
  if (!index) {
    index = new Map();
    for (const tool of Object.values(catalog.tools)) {
      index.set(nameKey(tool.name), tool);
    }
    indexes.set(catalog, index);
  }
  return index.get(nameKey(name));
}

/** Finds a tool by its camelCase oneof case. */
export function toolByCase(catalog: Catalog, toolCase: string): ToolSpec | undefined {
  return Object.values(catalog.tools).find((t) => t.case === toolCase);
}

/**
 * The risk of one call: the tool's risk, raised to irreversible when the model set the tool's
 * `marks_irreversible` field (a click that places an order). Approval policies key on this.
 */
export function callRisk(tool: ToolSpec, params: Message): ToolRisk {
  const flag = tool.irreversibleFlag ? tool.params.fields.find((f) => f.name === tool.irreversibleFlag) : undefined;
  if (flag && (params as unknown as Record<string, unknown>)[flag.localName] === true) {
    return "irreversible";
  }
  return tool.risk;
}
