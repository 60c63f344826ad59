import { create } from "@bufbuild/protobuf";
import { StepRequestSchema, ToolcallResultSchema } from "@baton/gen/baton/v1/agent_pb";
import { ToolResultSchema } from "@baton/gen/baton/v1/tools_pb";
import { describe, expect, it } from "vitest";
import { defaultFoldOptions } from "../context/fold.js";
import { buildPrompt } from "../context/prompt.js";
import { emptyContext } from "../context/state.js";
import { screenshotIds, takeScreenshots } from "./screenshots.js";

const jpeg = Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 1, 2, 3);

function resultsWith(): ReturnType<typeof create<typeof StepRequestSchema>> {
  return create(StepRequestSchema, {
    sessionId: "s1",
    input: {
      case: "toolResults",
      value: {
        results: [
          create(ToolcallResultSchema, {
            toolcallId: "call_3_0",
            outcome: {
              case: "result",
              value: create(ToolResultSchema, {
                tool: { case: "takeSnapshot", value: { text: '[e1] button "Go"', screenshot: { mimeType: "image/jpeg", data: jpeg, width: 1280, height: 800 } } },
              }),
            },
          }),
          create(ToolcallResultSchema, {
            toolcallId: "call_3_1",
            outcome: { case: "error", value: { message: "stale", snapshot: { text: "", screenshot: { mimeType: "image/gif", data: jpeg } } } },
          }),
          create(ToolcallResultSchema, {
            toolcallId: "call_3_2",
            outcome: { case: "result", value: create(ToolResultSchema, { tool: { case: "screenshot", value: { image: { mimeType: "image/png", data: jpeg, width: 10, height: 10 } } } }) },
          }),
        ],
      },
    },
  });
}

describe("screenshots taken out of tool results", () => {
  it("become stored screenshots named by toolcall id, and the results keep a reference only", () => {
    const req = resultsWith();
    const { request, shots } = takeScreenshots(req);
    expect(shots.map((s) => [s.id, s.toolcallId, s.mimeType, s.width, s.data.length])).toEqual([
      ["shot_call_3_0_0", "call_3_0", "image/jpeg", 1280, 7],
      ["shot_call_3_2_0", "call_3_2", "image/png", 10, 7],
    ]);
    if (request.input.case !== "toolResults") throw new Error("lost the input");
    const [snap, err, shot] = request.input.value.results;
    const image = (r: typeof snap) =>
      r?.outcome.case === "result"
        ? r.outcome.value.tool.case === "takeSnapshot"
          ? r.outcome.value.tool.value.screenshot
          : r.outcome.value.tool.case === "screenshot"
            ? r.outcome.value.tool.value.image
            : undefined
        : r?.outcome.case === "error"
          ? r.outcome.value.snapshot?.screenshot
          : undefined;
    expect([image(snap)?.url, image(snap)?.data.length]).toEqual(["screenshot:shot_call_3_0_0", 0]);
    expect([image(shot)?.url, image(shot)?.data.length]).toEqual(["screenshot:shot_call_3_2_0", 0]);
    // A GIF is not an image a model reads: its data goes, and nothing is stored.
    expect([image(err)?.url, image(err)?.data.length]).toEqual(["", 0]);
    // The caller's request is untouched; a retried input names the same screenshots.
    expect(req.input.case === "toolResults" && req.input.value.results[0]?.outcome.case === "result" && req.input.value.results[0].outcome.value.tool.case === "takeSnapshot"
      ? req.input.value.results[0].outcome.value.tool.value.screenshot?.data.length
      : -1).toBe(7);
    expect(takeScreenshots(resultsWith()).shots.map((s) => s.id)).toEqual(shots.map((s) => s.id));
    expect(screenshotIds('{"screenshot":{"url":"screenshot:shot_call_3_0_0"},"x":{"url":"screenshot:shot_b"}}')).toEqual(["shot_call_3_0_0", "shot_b"]);
  });

  it("leave the prompt at most the latest images; older ones are named in a note", () => {
    const s = {
      ...emptyContext("t"),
      isTask: true,
      latest: {
        step: 3,
        text: "",
        calls: [
          { id: "c0", name: "screenshot", arguments: "{}" },
          { id: "c1", name: "take_snapshot", arguments: "{}" },
          { id: "c2", name: "screenshot", arguments: "{}" },
        ],
      },
    };
    const img = (id: string) => ({ id, mimeType: "image/jpeg", data: jpeg, width: 1, height: 1 });
    const outputs = new Map([
      ["c0", "{}"],
      ["c1", "{}"],
      ["c2", "{}"],
    ]);
    const images = new Map([
      ["c0", [img("a")]],
      ["c1", [img("b")]],
      ["c2", [img("c")]],
    ]);
    const p = buildPrompt(s, "t", "", outputs, defaultFoldOptions, images);
    const results = p.items.flatMap((i) => (i.type === "tool_result" ? [i] : []));
    expect(results.map((r) => (r.images ?? []).map((i) => i.id))).toEqual([[], ["b"], ["c"]]);
    expect(results[0]?.output).toContain("[screenshot a not shown: a prompt carries only the latest 2]");
    expect(results[1]?.output).not.toContain("not shown");
  });
});
