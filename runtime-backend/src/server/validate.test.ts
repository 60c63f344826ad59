import { create, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  AgentService,
  CreateSessionRequestSchema,
  ReportLogRequestSchema,
  UserMessageSchema,
} from "@baton/gen/baton/v1/agent_pb";
import { ConsoleService } from "@baton/gen/baton/v1/console_pb";
import { Risk } from "@baton/gen/baton/v1/options_pb";
import { file_baton_v1_tools } from "@baton/gen/baton/v1/tools_pb";
import { describe, expect, it } from "vitest";
import { checkRequest, limitsOf, maxRequestBytes } from "./validate.js";

/** Every field of a request reachable outside tool results, with its proto path. */
function requestFields(desc: DescMessage, prefix = "", seen = new Set<string>()): [string, DescField][] {
  const out: [string, DescField][] = [];
  for (const f of desc.fields) {
    const path = `${prefix}${desc.name}.${f.name}`;
    out.push([path, f]);
    const child = f.message;
    if (child && child.file !== file_baton_v1_tools && child.typeName !== "google.protobuf.Timestamp" && !seen.has(child.typeName)) {
      seen.add(child.typeName);
      out.push(...requestFields(child, `${path} → `, seen));
    }
  }
  return out;
}

function refusal(desc: DescMessage, init: object): string {
  try {
    checkRequest(desc, create(desc, init as never));
  } catch (e) {
    expect(ConnectError.from(e).code).toBe(Code.InvalidArgument);
    return ConnectError.from(e).rawMessage;
  }
  return "";
}

describe("request limits are in the proto", () => {
  const methods = [...AgentService.methods, ...ConsoleService.methods];
  const fields = methods.flatMap((m) => requestFields(m.input));
  const limit = limitsOf;

  it("every string, list and map of a request has a length or item limit, and every integer a maximum", () => {
    const missing = fields.filter(([, f]) => {
      const c = limit(f);
      if (f.fieldKind === "list" || f.fieldKind === "map") return c?.maxItems === undefined;
      if (f.fieldKind === "scalar" && f.scalar === 9 /* string */) return c?.maxLength === undefined;
      if (f.fieldKind === "scalar" && f.scalar !== 8 /* bool */) return c?.maximum === undefined;
      return false;
    });
    expect(missing.map(([p]) => p)).toEqual([]);
  });

  it("every RPC has a request byte limit", () => {
    for (const m of methods) expect(maxRequestBytes(m, 0), m.name).toBeGreaterThan(0);
  });

  it("a task fits in a step: CreateSession.task and UserMessage.text take the same length", () => {
    const task = limit(CreateSessionRequestSchema.field.task)?.maxLength;
    expect(task).toBeGreaterThan(0);
    expect(task).toBe(limit(UserMessageSchema.field.text)?.maxLength);
  });
});

describe("checkRequest", () => {
  it("names the field and the limit", () => {
    expect(refusal(CreateSessionRequestSchema, { task: "x".repeat(100_001) })).toBe("task is longer than 100000 characters");
    expect(refusal(CreateSessionRequestSchema, { maxSteps: 10_001 })).toBe("max_steps is larger than 10000");
    expect(refusal(CreateSessionRequestSchema, { clientTools: Array.from({ length: 65 }, () => ({ name: "t" })) })).toBe("client_tools has more than 64 items");
    expect(refusal(CreateSessionRequestSchema, { clientTools: [{ name: "t", parametersJson: "x".repeat(20_001), risk: Risk.READ_ONLY }] })).toBe(
      "client_tools[0].parameters_json is longer than 20000 characters",
    );
    expect(refusal(ReportLogRequestSchema, { entries: [{}, { attributes: { k: "v\u0000" } }] })).toBe('entries[1].attributes["k"] contains a NUL character');
    expect(refusal(ReportLogRequestSchema, { entries: [{ step: 2 ** 31 }] })).toBe("entries[0].step is larger than 2147483647");
    expect(refusal(ReportLogRequestSchema, { entries: [{ time: { seconds: 253_402_300_800n } }] })).toBe("entries[0].time is outside 0001-01-01..9999-12-31");
    expect(refusal(CreateSessionRequestSchema, { model: "a\ud800" })).toBe("model is not valid Unicode (a lone surrogate)");
    expect(refusal(CreateSessionRequestSchema, { clientTools: [{ name: "t", risk: 77 }] })).toBe("client_tools[0].risk is 77, not a value of Risk");
  });

  it("counts characters, not UTF-16 units, and accepts what is within the limits", () => {
    expect(refusal(CreateSessionRequestSchema, { task: "😀".repeat(100_000), maxSteps: 10_000 })).toBe("");
  });
});
