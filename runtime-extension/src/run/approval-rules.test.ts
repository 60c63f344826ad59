import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { ApprovalRuleSchema } from "@baton/gen/baton/v1/descriptors";
import { Risk } from "@baton/gen/baton/v1/options_pb";
import { rememberedFor } from "@baton/sdk/policy";
import { describe, expect, it } from "vitest";
import { decisionOfRule } from "./approval-rules.js";

describe("rules from ListApprovalRules", () => {
  it("read as the loop's decisions, so its matcher decides what applies; a class this build does not know is left out", () => {
    const never = decisionOfRule(create(ApprovalRuleSchema, { id: "apr_1", site: "https://shop.example", risk: Risk.MUTATING, allow: false, tool: "click", expiresAt: timestampFromMs(Date.now() + 60_000) }));
    expect(never).toMatchObject({ id: "apr_1", site: "https://shop.example", risk: "mutating", allow: false, tool: "click" });
    expect(rememberedFor([never!], "https://shop.example/cart", "mutating", Date.now())?.id).toBe("apr_1");
    expect(rememberedFor([never!], "https://other.example/", "mutating", Date.now())).toBeUndefined();
    expect(rememberedFor([never!], "https://shop.example/cart", "mutating", Date.now() + 120_000)).toBeUndefined();
    expect(decisionOfRule(create(ApprovalRuleSchema, { id: "apr_2", site: "https://shop.example" }))).toBeUndefined();
  });
});
