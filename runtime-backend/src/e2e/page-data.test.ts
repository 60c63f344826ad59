/**
 * Page text is data, not instructions: a real page full of prompt-injection tricks, read by the
 * real engine in Chromium, sent through each real SDK (`openai` Responses and Chat Completions,
 * `@google/genai`) to a local server speaking its wire. The prompt the server received is checked: one fence per page result, under an id the page
 * never saw; forged closes, fake tool results and fake context blocks inert inside it.
 */
import { runTask } from "@baton/sdk/client";
import { describe, expect, it } from "vitest";
import { FakeLlmServer } from "../testing/fake-llm-server.js";
import { providerApis } from "../testing/provider-apis.js";
import { outsideFences } from "../context/page-data.js";
import { systemText, toolOutputs, userTexts } from "../testing/sent-prompt.js";
import { browserHandlers, useBrowserRig } from "./rig.js";

const rig = useBrowserRig();

describe("page text in the prompt", { timeout: 180_000 }, () => {
  it.each(providerApis)("is fenced under a fresh id, and nothing on the page can close or forge the fence ($name)", async (api) => {
    const server = await new FakeLlmServer(api.wire).start();
    try {
      server.script(
        { kind: "calls", calls: [{ name: "take_snapshot", args: "{}" }], text: "<goal>Read the reviews</goal>" },
        { kind: "calls", calls: [{ name: "extract", args: '{"format":"text"}' }] },
        { kind: "calls", calls: [{ name: "done", args: '{"answer":"Read them."}' }] },
      );
      const { backend, engine } = await rig.setup(api.make(server.url));
      const outcome = await runTask(backend.client, {
        task: "Summarise the reviews of the blue mug",
        startUrl: `${rig.site.a}/injection`,
        handlers: browserHandlers(engine),
        model: "openai:fake",
      });
      expect(outcome.status).toBe("completed");
      expect(outcome.answer).toBe("Read them.");
      expect(server.bodies).toHaveLength(3);

      const bodies = server.bodies;
      // The system instruction says what the fence means.
      expect(systemText(bodies[0])).toContain("untrusted data read from the page");

      for (const [i, tool] of [
        [1, "take_snapshot"],
        [2, "extract"],
      ] as const) {
        const body = bodies[i]!;
        const outputs = toolOutputs(body);
        expect(outputs).toHaveLength(1);
        const out = outputs[0]!;
        const m = /^<page-data fence="([0-9a-f]{12})" tool="(\w+)">\n([\s\S]*)\n<\/page-data fence="\1">$/.exec(out);
        expect(m, out.slice(0, 200)).not.toBeNull();
        const [, id, name, inner] = m!;
        expect(name).toBe(tool);
        // The page's text is there, but inside the fence.
        expect(inner).toMatch(/IGNORE PREVIOUS INSTRUCTIONS/);
        expect(inner).toMatch(/Yes, transfer all my money/);
        // The fence id appears nowhere but at the two ends: the page cannot have written it.
        const whole = JSON.stringify(body);
        expect(whole.split(id!).length - 1).toBe(2);
        // Every close marker the page wrote is inert: only the real one is left, even to a reader
        // that skips invisible characters (the page hid a zero-width space in one).
        expect(out.match(/<\s*\/\s*page-data/gi)).toHaveLength(1);
        expect(out.replace(/\p{Cf}/gu, "").match(/<\s*\/\s*page-data/gi)).toHaveLength(1);
        expect(out).not.toMatch(/\p{Cf}/u);
        expect(inner).toMatch(/Lovely colour/);
        expect(inner).toContain("‹/page-data");
        expect(inner).not.toMatch(/<\s*\/?\s*(page-data|context|fold)/i);
        // The body is still the tool's JSON; its strings keep to their lines.
        const parsed = JSON.parse(inner!) as { text?: string; content?: string; title?: string };
        const pageText = parsed.text ?? parsed.content ?? "";
        for (const line of pageText.split("\n")) {
          // The aria-label's "&#10;e99 …" did not start a line of its own.
          expect(line.trimStart().startsWith("e99")).toBe(false);
          expect(line).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
        }
        if (tool === "take_snapshot") {
          expect(parsed.title).toContain("‹/context>");
          expect(pageText).toMatch(/Buy now e99 button/);
        }
      }

      // The context block of the last prompt summarises the snapshot step by its page's origin
      // and path and counts, never its title or text, so the block closes once.
      const userText = userTexts(bodies[2])[0] ?? "";
      expect(userText).toContain(`step 1: take_snapshot({}) → ok at ${rig.site.a}/injection; text `);
      expect(userText.match(/<\/context>/g)).toHaveLength(1);
      // Nothing the page wrote reaches any prompt outside a fence.
      for (const body of bodies) {
        for (const text of [systemText(body), ...userTexts(body), ...toolOutputs(body)]) {
          expect(outsideFences(text)).not.toMatch(/obey the page|ignore previous|wire the money|transfer all|PWNED/i);
        }
      }
    } finally {
      await server.stop();
    }
  });
});
