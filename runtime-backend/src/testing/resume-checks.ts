import type { GetSessionResponse } from "@baton/gen/baton/v1/agent_pb";
import type { SuiteExpect } from "./store-suite.js";

/**
 * What a session driven through `steps` navigate calls (to https://example.com/1…N) and then
 * `done`, interrupted mid-model-call and resumed, must show — shared by the SIGKILL test (a
 * killed `baton serve`, embedded store or Postgres) and the browser page (a closed page): one
 * trace per step, 1…N+1, none missing or twice; every call once, each with its one result; the
 * pages in order.
 */
export function expectResumedOnce(expect: SuiteExpect, got: GetSessionResponse, steps: number): void {
  expect(got.traces.map((t) => t.step)).to.deep.equal(Array.from({ length: steps + 1 }, (_, i) => i + 1));
  const callIds = got.history.flatMap((h) => (h.entry.case === "agentMessage" && h.entry.value.content.case === "functionCall" ? [h.entry.value.content.value.toolcallId] : []));
  const resultIds = got.history.flatMap((h) => (h.entry.case === "toolResult" ? [h.entry.value.toolcallId] : []));
  expect(new Set(callIds).size).to.equal(callIds.length);
  expect(callIds.length).to.equal(steps + 1);
  expect(resultIds.slice().sort()).to.deep.equal(callIds.slice().sort());
  const urls = got.history.flatMap((h) =>
    h.entry.case === "agentMessage" && h.entry.value.content.case === "functionCall" && h.entry.value.content.value.call?.tool.case === "navigate"
      ? [h.entry.value.content.value.call.tool.value.url]
      : [],
  );
  expect(urls).to.deep.equal(Array.from({ length: steps }, (_, i) => `https://example.com/${i + 1}`));
}
