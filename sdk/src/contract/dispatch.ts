import { create, type DescMessage, type Message, type MessageShape } from "@bufbuild/protobuf";
import type { ToolError } from "@baton/gen/baton/v1/agent_pb";
import { type RouteCatalog, toolByCase } from "./catalog.js";
import { ToolErrorCode, ToolFailure, toolError } from "./tool-error.js";

/** Handlers keyed by camelCase case; the generated `ToolHandlers` types are assignable to it. */
export type AnyToolHandlers<Ctx> = {
  readonly [toolCase: string]: ((params: never, ctx: Ctx) => Promise<unknown>) | undefined;
};

/** What a dispatched call produced: the catalog's result message, or a ToolError. */
export type Dispatched<C extends RouteCatalog> =
  | { readonly ok: true; readonly result: MessageShape<C["result"]> }
  | { readonly ok: false; readonly error: ToolError };

/**
 * Runs a typed call through the handler for its case. Never throws: a missing handler, a
 * `ToolFailure` or any other exception comes back as a `ToolError` naming the tool.
 */
export async function dispatchToolCall<C extends RouteCatalog, Ctx>(
  catalog: C,
  call: MessageShape<C["call"]>,
  handlers: AnyToolHandlers<Ctx>,
  ctx: Ctx,
): Promise<Dispatched<C>> {
  const selected = (call as unknown as Record<string, { case?: string; value?: Message }>)[catalog.oneof];
  const tool = selected?.case ? toolByCase(catalog, selected.case) : undefined;
  if (!tool || !selected?.value) {
    return {
      ok: false,
      error: toolError(ToolErrorCode.INVALID_ARGUMENTS, "The call names no tool. Call one of the available tools."),
    };
  }
  const handler = handlers[tool.case];
  if (!handler) {
    return {
      ok: false,
      error: toolError(
        ToolErrorCode.UNKNOWN_TOOL,
        `Tool "${tool.name}" is not available in this client. Use another tool or ask the user.`,
        { tool: tool.name },
      ),
    };
  }
  try {
    const init = await handler(selected.value as never, ctx);
    const value = create(tool.result, init as never);
    const result = create(catalog.result as DescMessage, {
      [catalog.oneof]: { case: tool.case, value },
    });
    return { ok: true, result: result as MessageShape<C["result"]> };
  } catch (e) {
    if (e instanceof ToolFailure) {
      return { ok: false, error: e.toToolError(tool.name) };
    }
    const reason = e instanceof Error ? e.message : String(e);
    return {
      ok: false,
      error: toolError(ToolErrorCode.INTERNAL, `Tool "${tool.name}" failed: ${reason}`, { tool: tool.name }),
    };
  }
}
