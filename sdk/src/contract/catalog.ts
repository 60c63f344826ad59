import type { DescMessage, Message } from "@bufbuild/protobuf";
import type { JsonSchema } from "./json-schema.js";

/** Who executes a tool: the client that owns the browser, or the backend. */
export type ToolSide = "client" | "backend";

/** A tool's risk class; approval policies key on it. */
export type ToolRisk = "read_only" | "mutating" | "irreversible";

/**
 * How a tool is routed: what a client needs to run a call (`toolRoutes.tools.<name>` in a
 * `*_baton.ts` file), without the model-facing description and JSON Schema.
 */
export interface ToolRoute {
  /** snake_case name the model sees. */
  readonly name: string;
  /** camelCase oneof case the code switches on. */
  readonly case: string;
  /** Short human label for progress UIs. */
  readonly title: string;
  readonly side: ToolSide;
  readonly risk: ToolRisk;
  /** The params message descriptor. */
  readonly params: DescMessage;
  /** The result message descriptor. */
  readonly result: DescMessage;
  /** A bool params field (snake_case) that, when true, makes the call irreversible. */
  readonly irreversibleFlag?: string;
  /**
   * The tool opens, leaves, closes or lists pages rather than acting inside one (navigate, list_tabs…):
   * where it goes is the URL policy's question, and neither a read-only site nor a page the policy
   * would not load refuses it (it is how the agent leaves one).
   */
  readonly navigation?: boolean;
}

/** One tool of a generated catalog (`toolCatalog.tools.<name>` in a `*_baton.ts` file). */
export interface ToolSpec extends ToolRoute {
  /** Model-facing description. */
  readonly description: string;
  /** JSON Schema of the params, as given to the model. */
  readonly parameters: JsonSchema;
}

/** A generated routing catalog (`toolRoutes`): the call and result oneof messages and their tools' routes. */
export interface RouteCatalog<Call extends DescMessage = DescMessage, Result extends DescMessage = DescMessage, Tool extends ToolRoute = ToolRoute> {
  readonly call: Call;
  readonly result: Result;
  /** localName of the oneof in both `call` and `result`. */
  readonly oneof: string;
  readonly tools: Readonly<Record<string, Tool>>;
}

/** A generated tool catalog (`toolCatalog`): the call and result oneof messages and their tools. */
export type Catalog<Call extends DescMessage = DescMessage, Result extends DescMessage = DescMessage> = RouteCatalog<Call, Result, ToolSpec>;

const indexes = new WeakMap<object, Map<string, ToolRoute>>();

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
export function findTool<T extends ToolRoute>(catalog: { readonly tools: Readonly<Record<string, T>> }, name: string): T | undefined {
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
  return index.get(nameKey(name)) as T | undefined;
}

/** Finds a tool by its camelCase oneof case. */
export function toolByCase<T extends ToolRoute>(catalog: { readonly tools: Readonly<Record<string, T>> }, toolCase: string): T | undefined {
  return Object.values(catalog.tools).find((t) => t.case === toolCase);
}

/**
 * The risk of one call: the tool's risk, raised to irreversible when the model set the tool's
 * `marks_irreversible` field (a click that places an order). Approval policies key on this.
 */
export function callRisk(tool: ToolRoute, params: Message): ToolRisk {
  const flag = tool.irreversibleFlag ? tool.params.fields.find((f) => f.name === tool.irreversibleFlag) : undefined;
  if (flag && (params as unknown as Record<string, unknown>)[flag.localName] === true) {
    return "irreversible";
  }
  return tool.risk;
}

/**
 * The action class of a call on the page it acts on: its risk (`callRisk`), or undefined for a
 * call that acts inside no page — a backend tool, or a navigation tool (navigate, open_tab…),
 * whose destination the URL policy decides instead. Read-only sites and remembered approvals
 * key on it.
 */
export function pageActionClass(tool: ToolRoute, params: Message): ToolRisk | undefined {
  if (tool.side !== "client" || tool.navigation) return undefined;
  return callRisk(tool, params);
}
