import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { ClientToolSchema } from "@baton/gen/baton/v1/agent_pb";
import { Risk } from "@baton/gen/baton/v1/options_pb";
import { describe, expect, it } from "vitest";
import { readClientTools } from "./client-tools.js";

const tool = (o: Partial<{ name: string; description: string; parametersJson: string; risk: Risk }> = {}) =>
  create(ClientToolSchema, {
    name: "lookup_order",
    description: "Look up an order.",
    parametersJson: '{"type":"object","properties":{"order_id":{"type":"string"}},"required":["order_id"]}',
    risk: Risk.READ_ONLY,
    ...o,
  });

describe("readClientTools", () => {
  it("reads valid declarations", () => {
    expect(readClientTools([tool(), tool({ name: "cancel_order", risk: Risk.IRREVERSIBLE })])).toEqual([
      expect.objectContaining({ name: "lookup_order", risk: "read_only", parameters: expect.objectContaining({ required: ["order_id"] }) }),
      expect.objectContaining({ name: "cancel_order", risk: "irreversible" }),
    ]);
  });

  const bad: [string, Parameters<typeof tool>[0][], string][] = [
    ["a camelCase name", [{ name: "lookupOrder" }], "must be snake_case"],
    ["a built-in name", [{ name: "click" }], '"click" is a built-in tool'],
    ["a duplicate", [{}, {}], "declared twice"],
    ["no description", [{ description: " " }], "the description is empty"],
    ["bad JSON", [{ parametersJson: "{" }], "parameters_json is not JSON"],
    ["a non-object schema", [{ parametersJson: '{"type":"string"}' }], 'must be a JSON Schema with "type": "object"'],
    ["no risk", [{ risk: Risk.UNSPECIFIED }], "set risk"],
  ];
  it.each(bad)("rejects %s with InvalidArgument", (_what, tools, message) => {
    expect(() => readClientTools(tools.map(tool))).toThrow(message);
    try {
      readClientTools(tools.map(tool));
    } catch (e) {
      expect((e as { code: Code }).code).toBe(Code.InvalidArgument);
    }
  });
});
