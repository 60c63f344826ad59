import type { MessageShape } from "@bufbuild/protobuf";
import { type AnyToolHandlers, type Catalog, encodeToolResult, parseToolCall } from "../contract/index.js";
import type { ExtensionTools, RunContext } from "./run-task.js";

/**
 * The client's own tools, for `runTask`'s `extensions`: the model's calls to them are read with
 * `parseToolCall` (protobuf JSON, the catalog's limits, errors the model can act on) and their
 * results written with `encodeToolResult`. It is a function of its own, not part of `runTask`,
 * so that a client without tools of its own does not bundle protobuf's JSON codec (a fifth of
 * a browser bundle of the client).
 *
 * ```ts
 * await runTask(client, { task, handlers, extensions: clientTools(acmeCatalog, acmeHandlers) });
 * ```
 */
export function clientTools<C extends Catalog>(catalog: C, handlers: AnyToolHandlers<RunContext>): ExtensionTools {
  return {
    catalog,
    handlers,
    parse: (name, argumentsJson) => parseToolCall(catalog, name, argumentsJson),
    encode: (result) => encodeToolResult(catalog, result as MessageShape<C["result"]>),
  };
}
