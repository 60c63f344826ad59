/**
 * Screenshots reach the model: the engine in Chromium takes them, the backend stores each once
 * and sends it as an image to the model (through each real SDK, `openai` Responses and Chat
 * Completions, `@anthropic-ai/sdk` and `@google/genai`, against a local server speaking its wire) in the next prompt only; the step's trace names it, GetScreenshot serves it, and the
 * tokens it cost are in the step's usage and cost.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runTask } from "@baton/sdk/client";
import { describe, expect, it } from "vitest";
import { defaultPrices } from "../loop/pricing.js";
import { FakeLlmServer } from "../testing/fake-llm-server.js";
import { providerApis } from "../testing/provider-apis.js";
import { imagesIn } from "../testing/sent-prompt.js";
import { browserHandlers, useBrowserRig } from "./rig.js";

const rig = useBrowserRig();
const artefacts = fileURLToPath(new URL("../../../tmp/screenshots/", import.meta.url));

describe("screenshots", { timeout: 180_000 }, () => {
  it.each(providerApis)("go to the model ($name) as images in the next prompt only, are stored once, named by the trace and counted in usage", async (api) => {
    // The fake counts what a real API would: 100 tokens of text, 1000 per image.
    const server = await new FakeLlmServer(api.wire, (body) => ({ input: 100 + 1000 * imagesIn(body).length, output: 10, cached: 0 })).start();
    try {
      server.script(
        { kind: "calls", calls: [{ name: "take_snapshot", args: '{"include_screenshot":true}' }], text: "<goal>Look at the basket</goal>" },
        { kind: "calls", calls: [{ name: "screenshot", args: "{}" }] },
        { kind: "calls", calls: [{ name: "done", args: '{"answer":"One blue mug."}' }] },
      );
      const { backend, engine } = await rig.setup(api.make(server.url));
      const outcome = await runTask(backend.client, {
        task: "What is in my basket?",
        startUrl: `${rig.site.a}/shop`,
        handlers: browserHandlers(engine),
        model: "openai:gpt-4o-mini",
      });
      expect(outcome.status).toBe("completed");
      expect(server.bodies).toHaveLength(3);

      // Prompt 2 carries the labelled snapshot's screenshot; prompt 3 the plain screenshot and
      // not the earlier one; prompt 1 none.
      const [first, second, third] = server.bodies.map(imagesIn);
      expect(first).toEqual([]);
      expect(second).toHaveLength(1);
      expect(third).toHaveLength(1);
      expect(second![0]!.startsWith("/9j/")).toBe(true); // JPEG
      expect(third![0]).not.toBe(second![0]);
      expect(JSON.stringify(server.bodies[2])).not.toContain(second![0]!);

      const got = await backend.client.getSession({ sessionId: outcome.sessionId });
      expect(got.traces.map((t) => [t.step, t.screenshots])).toEqual([
        [1, ["shot_call_1_0_0"]],
        [2, ["shot_call_2_0_0"]],
        [3, []],
      ]);
      // The history keeps a reference, not the bytes.
      const shots = got.history.flatMap((h) => {
        if (h.entry.case !== "toolResult" || h.entry.value.outcome.case !== "result") return [];
        const t = h.entry.value.outcome.value.tool;
        return t.case === "takeSnapshot" ? [t.value.screenshot] : t.case === "screenshot" ? [t.value.image] : [];
      });
      expect(shots.map((i) => [i?.url, i?.data.length, i?.mimeType])).toEqual([
        ["screenshot:shot_call_1_0_0", 0, "image/jpeg"],
        ["screenshot:shot_call_2_0_0", 0, "image/jpeg"],
      ]);
      expect(shots[0]?.width).toBe(1000);
      // GetScreenshot serves exactly what the model saw.
      const one = await backend.client.getScreenshot({ sessionId: outcome.sessionId, screenshotId: "shot_call_1_0_0" });
      // Kept for a person to look at (git-ignored): the labelled screenshot the model saw.
      mkdirSync(artefacts, { recursive: true });
      writeFileSync(join(artefacts, `model-saw-labelled-snapshot-${api.name.replace(/\W+/g, "-").toLowerCase()}.jpg`), one.image!.data);
      expect(Buffer.from(one.image!.data).toString("base64")).toBe(second![0]);
      expect([one.step, one.toolcallId, one.image?.mimeType]).toEqual([1, "call_1_0", "image/jpeg"]);
      await expect(backend.client.getScreenshot({ sessionId: outcome.sessionId, screenshotId: "shot_nope" })).rejects.toThrow(/not found/);

      // The image's tokens are in the step's usage and cost (step 2's prompt had one).
      const price = defaultPrices["gpt-4o-mini"]!;
      expect(got.traces.map((t) => Number(t.usage?.inputTokens))).toEqual([100, 1100, 1100]);
      expect(got.traces[1]?.usage?.costUsd).toBeCloseTo((1100 * price[0] + 10 * price[2]) / 1e6, 12);
    } finally {
      await server.stop();
    }
  });
});
