import { create } from "@bufbuild/protobuf";
import { ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import { type ClientToolHandlers, toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { ToolCallSchema } from "@baton/gen/baton/v1/tools_pb";
import { describe, expect, it } from "vitest";
import { dispatchToolCall } from "./dispatch.js";
import { encodeToolError, encodeToolResult } from "./model-json.js";
import { parseToolCall } from "./parse-tool-call.js";
import { ToolFailure } from "./tool-error.js";

function call(name: string, args: unknown) {
  const parsed = parseToolCall(toolCatalog, name, args);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.call;
}

type Ctx = { log: string[] };
const handlers: Partial<ClientToolHandlers<Ctx>> = {
  async click(params, ctx) {
    ctx.log.push(`click ${params.ref}`);
    return { evidence: { url: "http://127.0.0.1/after", title: "After", refsAdded: ["e9"] } };
  },
  async typeText(params) {
    if (params.ref === "e404") {
      throw new ToolFailure(ToolErrorCode.UNKNOWN_REF, 'No element "e404" in the latest snapshot.', { field: "ref" });
    }
    throw new Error("socket closed");
  },
};

describe("dispatchToolCall", () => {
  it("runs the handler for the call's case with the typed params and context", async () => {
    const ctx: Ctx = { log: [] };
    const out = await dispatchToolCall(toolCatalog, call("click", { ref: "e3" }), handlers, ctx);
    expect(ctx.log).toEqual(["click e3"]);
    if (!out.ok || out.result.tool.case !== "click") throw new Error("expected a click result");
    expect(out.result.tool.value.evidence?.refsAdded).toEqual(["e9"]);
    expect(encodeToolResult(toolCatalog, out.result)).toBe(
      '{"evidence":{"url":"http://127.0.0.1/after","title":"After","refs_added":["e9"]}}',
    );
  });

  it("turns a ToolFailure into its ToolError and any other exception into INTERNAL", async () => {
    const ctx: Ctx = { log: [] };
    const a = await dispatchToolCall(toolCatalog, call("type_text", { ref: "e404", text: "x" }), handlers, ctx);
    if (a.ok) throw new Error("expected failure");
    expect(a.error.code).toBe(ToolErrorCode.UNKNOWN_REF);
    expect(a.error.tool).toBe("type_text");
    expect(a.error.field).toBe("ref");
    expect(encodeToolError(a.error)).toBe(
      '{"error":{"code":"unknown_ref","message":"No element \\"e404\\" in the latest snapshot.","tool":"type_text","field":"ref"}}',
    );
    const b = await dispatchToolCall(toolCatalog, call("type_text", { ref: "e1", text: "x" }), handlers, ctx);
    if (b.ok) throw new Error("expected failure");
    expect(b.error.code).toBe(ToolErrorCode.INTERNAL);
    expect(b.error.message).toContain('Tool "type_text" failed: socket closed');
  });

  it("reports a tool without a handler, and an empty call, as errors for the model", async () => {
    const ctx: Ctx = { log: [] };
    const missing = await dispatchToolCall(toolCatalog, call("hover", { ref: "e1" }), handlers, ctx);
    expect(missing.ok ? "" : missing.error.code).toBe(ToolErrorCode.UNKNOWN_TOOL);
    const empty = await dispatchToolCall(toolCatalog, create(ToolCallSchema), handlers, ctx);
    expect(empty.ok ? "" : empty.error.code).toBe(ToolErrorCode.INVALID_ARGUMENTS);
  });
});
