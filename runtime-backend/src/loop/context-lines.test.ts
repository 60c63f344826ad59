import { create } from "@bufbuild/protobuf";
import { CreateSessionRequestSchema, StepRequestSchema, type StepResponse, ToolcallResultSchema } from "@baton/gen/baton/v1/agent_pb";
import { describe, expect, it } from "vitest";
import { defaultFoldOptions } from "../context/fold.js";
import type { ModelRequest } from "../providers/types.js";
import { scriptedAgent } from "../testing/harness.js";
import { type CachedState, SessionCache } from "./session-cache.js";

/** A cache that keeps nothing: every step reads its session (and its context lines) from the store. */
class NoCache extends SessionCache {
  override set(_id: string, _state: CachedState): void {}
}

/** Runs one session for `steps` steps; returns the context block of every prompt. */
async function run(cache: SessionCache, steps: number): Promise<string[]> {
  const script = (req: ModelRequest) => ({
    text: `Step ${req.callIndex}.`,
    calls: [{ name: "take_snapshot", args: {} }],
    context: `saw page ${req.callIndex}; next ${req.callIndex + 1}`,
    // Folds only now and then: in between, the budget drops the oldest summaries.
    ...(req.callIndex % 9 === 0 ? { fold: `pages 0-${req.callIndex} seen` } : {}),
  });
  const { agent, model, close } = await scriptedAgent(script, { cache, fold: { ...defaultFoldOptions, tokenBudget: 120 } });
  try {
    const s = await agent.createSession("alice", create(CreateSessionRequestSchema, { task: "read every page", maxSteps: steps + 5 }));
    let r: StepResponse = await agent.step("alice", create(StepRequestSchema, { sessionId: s.id }));
    for (let i = 1; i < steps; i++) {
      const call = r.messages.find((m) => m.content.case === "functionCall");
      const toolcallId = call?.content.case === "functionCall" ? call.content.value.toolcallId : "";
      const result = create(ToolcallResultSchema, { toolcallId, outcome: { case: "result", value: { tool: { case: "takeSnapshot", value: { url: "https://example.test/", title: `Page ${i}`, text: `[e1] link "next"` } } } } });
      r = await agent.step("alice", create(StepRequestSchema, { sessionId: s.id, input: { case: "toolResults", value: { results: [result] } } }));
    }
    return model.requests.map((q) => (q.items[0]?.type === "user" ? q.items[0].text : ""));
  } finally {
    await close();
  }
}

describe("the context as stored lines", () => {
  // 80 steps on two stores: a few seconds alone, over a minute on the shared machine under load.
  it("reads back exactly what the turns kept in memory: every prompt is the same with and without the session cache", async () => {
    const steps = 40;
    const cached = await run(new SessionCache(), steps);
    const stored = await run(new NoCache(), steps);
    expect(cached).toHaveLength(steps);
    expect(stored).toEqual(cached);
    // The run did both: folds (the folded progress changes) and trims (the oldest recent step
    // goes while the folded progress stays).
    const recent = (p: string) => p.split("\n").filter((l) => l.startsWith("- step "));
    const folded = (p: string) => p.split("\n").filter((l) => /^\d+\. /.test(l)).join("\n");
    const pairs = cached.slice(1).map((p, i) => ({ before: cached[i] ?? "", after: p }));
    expect(pairs.some(({ before, after }) => folded(after) !== folded(before))).toBe(true);
    expect(pairs.some(({ before, after }) => folded(after) === folded(before) && recent(before).length > 0 && !after.includes(recent(before)[0] ?? ""))).toBe(true);
  }, 180_000);
});
