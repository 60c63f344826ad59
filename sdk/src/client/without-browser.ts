import { type ClientToolHandlers, toolRoutes } from "@baton/gen/baton/v1/tools_baton";
import { ToolErrorCode, ToolFailure } from "../contract/index.js";
import type { RunContext } from "./run-task.js";

/**
 * Client tool handlers for a client with no browser (a chat or support frontend that brings
 * its own tools): every browser tool answers the model that it is unavailable here, so the
 * model moves on; `askUser` is the app's.
 */
export function withoutBrowser(askUser: ClientToolHandlers<RunContext>["askUser"]): ClientToolHandlers<RunContext> {
  const unavailable = Object.values(toolRoutes.tools)
    .filter((t) => t.side === "client" && t.case !== "askUser")
    .map((t) => [
      t.case,
      async () => {
        throw new ToolFailure(ToolErrorCode.UNKNOWN_TOOL, `${t.name} is not available: this client has no browser. Use the other tools.`);
      },
    ]);
  // Built from the catalog at runtime, so it covers every client tool the proto declares.
  return { ...Object.fromEntries(unavailable), askUser } as ClientToolHandlers<RunContext>;
}
