/**
 * `descriptors.ts` (protoc-gen-baton's option `descriptors`) against protoc-gen-es's `*_pb.ts`:
 * the compact literals, hydrated with `createFileRegistry`, must describe every file, message,
 * field, oneof, enum and service exactly as the embedded FileDescriptorProtos do, and messages
 * must cross between the two in both wire formats.
 */
import { create, type DescEnum, type DescField, type DescFile, type DescMessage, type DescService, fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import * as agentPb from "@baton/gen/baton/v1/agent_pb";
import * as consolePb from "@baton/gen/baton/v1/console_pb";
import * as descriptors from "@baton/gen/baton/v1/descriptors";
import * as optionsPb from "@baton/gen/baton/v1/options_pb";
import * as toolsPb from "@baton/gen/baton/v1/tools_pb";
import { describe, expect, it } from "vitest";

type Desc = DescFile | DescMessage | DescEnum | DescService;
const isDesc = (v: unknown): v is Desc => typeof v === "object" && v !== null && "kind" in v && ["file", "message", "enum", "service"].includes((v as Desc).kind);

/** Everything a runtime (create, the binary and JSON codecs, Connect) reads from a descriptor. */
function shape(d: Desc): unknown {
  const field = (f: DescField) => {
    // The members of one field kind (list, map, scalar …) read through one loose view.
    const k = f as unknown as Record<string, unknown> & { getDefaultValue?: () => unknown };
    return {
      name: f.name,
      number: f.number,
      localName: f.localName,
      jsonName: f.jsonName,
      fieldKind: f.fieldKind,
      scalar: f.scalar,
      listKind: k.listKind,
      mapKey: k.mapKey,
      mapKind: k.mapKind,
      message: f.message?.typeName,
      enum: f.enum?.typeName,
      oneof: f.oneof?.name,
      presence: f.presence,
      packed: k.packed,
      delimitedEncoding: k.delimitedEncoding,
      longAsString: k.longAsString,
      utf8Validation: f.utf8Validation,
      defaultValue: k.getDefaultValue?.(),
    };
  };
  switch (d.kind) {
    case "file":
      return {
        name: d.name,
        edition: d.edition,
        dependencies: d.dependencies.map((x) => x.name),
        messages: d.messages.map(shape),
        enums: d.enums.map(shape),
        services: d.services.map(shape),
      };
    case "message":
      return {
        typeName: d.typeName,
        fields: d.fields.map(field),
        members: d.members.map((m) => `${m.kind} ${m.name}`),
        oneofs: d.oneofs.map((o) => ({ name: o.name, localName: o.localName, fields: o.fields.map((f) => f.name) })),
        nestedMessages: d.nestedMessages.map(shape),
        nestedEnums: d.nestedEnums.map(shape),
      };
    case "enum":
      return { typeName: d.typeName, open: d.open, sharedPrefix: d.sharedPrefix, values: d.values.map((v) => [v.name, v.localName, v.number]) };
    case "service":
      return {
        typeName: d.typeName,
        methods: d.methods.map((m) => ({ name: m.name, localName: m.localName, methodKind: m.methodKind, input: m.input.typeName, output: m.output.typeName, idempotency: m.idempotency })),
      };
  }
}

const pb: Record<string, unknown> = { ...optionsPb, ...toolsPb, ...agentPb, ...consolePb };

describe("descriptors.ts (compact literals) against the *_pb.ts", () => {
  it("has every file, message, enum and service of the *_pb.ts under the same name", () => {
    const ours = Object.entries(descriptors).filter(([, v]) => isDesc(v)).map(([k]) => k).sort();
    const theirs = Object.entries(pb).filter(([, v]) => isDesc(v)).map(([k]) => k).sort();
    expect(ours).toEqual(theirs);
    expect(ours).toContain("AgentService");
    expect(ours.length).toBeGreaterThan(150);
  });

  it("describes each of them exactly as the embedded FileDescriptorProtos do", () => {
    let compared = 0;
    for (const [name, ours] of Object.entries(descriptors)) {
      if (!isDesc(ours)) continue;
      expect(shape(ours), name).toEqual(shape(pb[name] as Desc));
      compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });

  it("carries messages across in both wire formats: maps, oneofs, optionals, enums, timestamps, nested tool calls", () => {
    const session = {
      id: "s1",
      status: agentPb.SessionStatus.AWAITING_TOOLS,
      usage: { inputTokens: 12n, costUsd: 0.25 },
      createdAt: timestampFromMs(1_700_000_000_123),
    };
    const cases: [DescMessage, DescMessage, object][] = [
      [agentPb.GetSessionResponseSchema, descriptors.GetSessionResponseSchema, {
        session,
        pendingCalls: [{ id: "m1", status: agentPb.MessageStatus.AWAITING_APPROVAL, content: { case: "functionCall", value: { toolcallId: "c1", call: { tool: { case: "takeSnapshot", value: { maxChars: 500, includeScreenshot: true } } } } } }],
        logs: [{ level: agentPb.LogLevel.WARN, message: "slow", attributes: { tool: "click", ms: "812" }, time: timestampFromMs(5) }],
      }],
      [agentPb.StepRequestSchema, descriptors.StepRequestSchema, {
        sessionId: "s1",
        input: { case: "toolResults", value: { results: [{ toolcallId: "c1", outcome: { case: "error", value: { code: agentPb.ToolErrorCode.STALE_REF, message: "gone", field: "ref" } } }] } },
      }],
      [toolsPb.ToolCallSchema, descriptors.ToolCallSchema, { tool: { case: "pressKeys", value: { keys: "Enter" } } }],
    ];
    for (const [theirs, ours, init] of cases) {
      const msg = create(theirs, init as never);
      const json = toJson(theirs, msg);
      expect(toJson(ours, fromBinary(ours, toBinary(theirs, msg)))).toEqual(json);
      expect(toBinary(theirs, fromBinary(theirs, toBinary(ours, fromJson(ours, json))))).toEqual(toBinary(theirs, msg));
    }
    // The case of a oneof and a proto3 optional survive (a field left unset is not sent).
    const call = fromBinary(descriptors.ToolCallSchema, toBinary(toolsPb.ToolCallSchema, create(toolsPb.ToolCallSchema, { tool: { case: "takeSnapshot", value: { maxChars: 0 } } })));
    expect(call.tool.case).toBe("takeSnapshot");
    expect(call.tool.case === "takeSnapshot" && call.tool.value.maxChars).toBe(0);
  });
});
