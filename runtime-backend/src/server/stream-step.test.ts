/**
 * Text as it streams, end to end: a model behind the real `openai` / `@google/genai` SDK streams
 * from a local fake server, the backend forwards each piece through StreamStep over HTTP, and
 * `runTask` hands it to `onEvent` before the step's final messages arrive. Tool calls are
 * committed once, whole; a stream cut mid-turn (the model's, or the client's) loses nothing.
 */
import { create } from "@bufbuild/protobuf";
import { StepRequestSchema, type StepResponse, ToolcallResultSchema } from "@baton/gen/baton/v1/agent_pb";
import { ToolResultSchema } from "@baton/gen/baton/v1/tools_pb";
import { createBatonClient, type RunEvent, runTask, withoutBrowser } from "@baton/sdk/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../loop/agent.js";
import { GeminiProvider } from "../providers/gemini.js";
import { OpenAiChatProvider } from "../providers/openai-chat.js";
import { OpenAiResponsesProvider } from "../providers/openai-responses.js";
import type { Provider } from "../providers/types.js";
import type { Db } from "../store/db.js";
import { openDb } from "../store/open.js";
import { SessionStore } from "../store/session-store.js";
import { readTraces } from "../store/traces.js";
import { createToken, ensureUser } from "../store/users.js";
import { chatWire, FakeLlmServer, geminiWire, responsesWire, type WireFormat } from "../testing/fake-llm-server.js";
import { bearerAuth } from "./auth.js";
import { agentRoutes } from "./routes.js";
import { type RunningServer, serve } from "./serve.js";

const providers: { name: string; wire: WireFormat; make: (url: string) => Provider }[] = [
  { name: "openai responses", wire: responsesWire, make: (url) => new OpenAiResponsesProvider({ apiKey: "sk-test", baseURL: `${url}/v1` }) },
  { name: "chat completions", wire: chatWire, make: (url) => new OpenAiChatProvider({ apiKey: "sk-test", baseURL: `${url}/v1` }) },
  { name: "gemini", wire: geminiWire, make: (url) => new GeminiProvider({ apiKey: "AIza-test", baseUrl: url }) },
];

let db: Db;
let token = "";
beforeAll(async () => {
  db = await openDb({});
  await ensureUser(db, "alice");
  token = await createToken(db, "alice");
});
afterAll(() => db?.close());

/** A backend over HTTP whose model is `provider`. */
async function backendFor(provider: Provider): Promise<{ server: RunningServer; agent: Agent }> {
  const agent = new Agent({ store: new SessionStore(db), resolveModel: () => ({ provider, model: "fake" }) });
  return { server: await serve({ routes: agentRoutes(agent, bearerAuth(db)) }), agent };
}

const thought = "The page has a search box; I will search for mugs.";
const said = "Searching the shop for mugs now, then I will read the results.";

for (const p of providers) {
  describe(`streaming through StreamStep: ${p.name}`, () => {
    let fake: FakeLlmServer;
    let server: RunningServer;
    beforeAll(async () => {
      fake = await new FakeLlmServer(p.wire, { input: 10, output: 5, cached: 0 }, { chunkDelayMs: 15 }).start();
      ({ server } = await backendFor(p.make(fake.url)));
    });
    afterAll(async () => {
      await server.close();
      await fake.stop();
    });

    it("hands reasoning and text to onEvent piece by piece, before the step's messages, without control tags", async () => {
      fake.script(
        { kind: "calls", calls: [{ name: "search_user_memory", args: '{"query":"mugs"}' }], text: `<goal>Find a mug</goal>${said}\n<context>nothing yet</context>`, reasoning: thought },
        { kind: "calls", calls: [{ name: "done", args: '{"answer":"Found one."}' }] },
      );
      const events: RunEvent[] = [];
      const outcome = await runTask(createBatonClient({ baseUrl: server.url, token }), {
        task: "Find me a mug",
        handlers: withoutBrowser(async () => ({ answer: "no" })),
        onEvent: (e) => events.push(e),
      });
      expect(outcome.status).toBe("completed");
      const deltas = (type: "text_delta" | "reasoning_delta") => events.flatMap((e) => (e.type === type ? [e.delta] : []));
      expect(deltas("text_delta").length).toBeGreaterThan(3);
      expect(deltas("reasoning_delta").length).toBeGreaterThan(3);
      expect(deltas("text_delta").join("")).toBe(`${said}\n`);
      expect(deltas("reasoning_delta").join("")).toBe(thought);
      // The pieces came before the step's whole text and reasoning.
      const firstDelta = events.findIndex((e) => e.type === "text_delta");
      const whole = events.findIndex((e) => e.type === "text");
      expect(firstDelta).toBeGreaterThan(-1);
      expect(firstDelta).toBeLessThan(whole);
      expect(events[whole]).toEqual({ type: "text", text: said });
      expect(events.find((e) => e.type === "reasoning")).toEqual({ type: "reasoning", text: thought });
      expect(events.filter((e) => e.type === "thinking").every((e) => e.type === "thinking" && e.attempt === 1)).toBe(true);
    });

    it("restarts the stream when the model's stream is cut mid-turn, and commits the turn once", async () => {
      const answer = { kind: "calls", calls: [{ name: "done", args: '{"answer":"All done."}' }], text: said } as const;
      fake.script({ kind: "cut", answer }, answer);
      const events: RunEvent[] = [];
      const client = createBatonClient({ baseUrl: server.url, token });
      const outcome = await runTask(client, { task: "Finish up", handlers: withoutBrowser(async () => ({ answer: "no" })), onEvent: (e) => events.push(e) });
      expect(outcome.status).toBe("completed");
      expect(outcome.answer).toBe("All done.");
      expect(fake.bodies).toHaveLength(2);
      const restart = events.findIndex((e) => e.type === "thinking" && e.attempt === 2);
      expect(restart).toBeGreaterThan(0);
      const after = events.slice(restart).flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
      expect(after).toBe(said);
      // One turn, one trace: the cut attempt left nothing behind.
      const traces = await readTraces(db, outcome.sessionId);
      expect(traces.map((t) => t.step)).toEqual([1]);
      expect(traces[0]?.errors.join(" ")).toMatch(/attempt 1/);
    });
  });
}

describe("a client stream cut mid-turn", () => {
  it("loses nothing: the turn commits, and the retried input gets exactly the committed answer", async () => {
    const fake = await new FakeLlmServer(responsesWire, { input: 10, output: 5, cached: 0 }, { chunkDelayMs: 40 }).start();
    const { server } = await backendFor(new OpenAiResponsesProvider({ apiKey: "sk-test", baseURL: `${fake.url}/v1` }));
    try {
      fake.script(
        { kind: "calls", calls: [{ name: "navigate", args: '{"url":"https://example.com"}' }], text: "<goal>Open it</goal>Opening." },
        { kind: "calls", calls: [{ name: "go_back", args: "{}" }], text: said },
      );
      const client = createBatonClient({ baseUrl: server.url, token });
      const { session } = await client.createSession({ task: "Open example.com" });
      const first = await client.step({ sessionId: session!.id });
      const call = first.messages.find((m) => m.content.case === "functionCall");
      const toolcallId = call?.content.case === "functionCall" ? call.content.value.toolcallId : "";
      const req = create(StepRequestSchema, {
        sessionId: session!.id,
        input: {
          case: "toolResults",
          value: {
            results: [
              create(ToolcallResultSchema, {
                toolcallId,
                outcome: { case: "result", value: create(ToolResultSchema, { tool: { case: "navigate", value: { url: "https://example.com/", title: "Example" } } }) },
              }),
            ],
          },
        },
      });
      // The client goes away after the first piece of text.
      const cut = new AbortController();
      let pieces = 0;
      await (async () => {
        for await (const ev of client.streamStep({ step: req }, { signal: cut.signal })) {
          if (ev.event.case === "textDelta" && ++pieces === 1) cut.abort();
        }
      })().catch(() => undefined);
      expect(pieces).toBe(1);
      // It comes back with the same input: the stored answer, whole, from the one model call.
      let again: StepResponse | undefined;
      for (let i = 0; i < 100 && !again; i++) {
        again = await client.step(req).catch(() => undefined);
        if (!again) await new Promise((r) => setTimeout(r, 50));
      }
      const texts = again?.messages.flatMap((m) => (m.content.case === "text" ? [m.content.value.text] : []));
      expect(texts).toEqual([said]);
      expect(again?.messages.some((m) => m.content.case === "functionCall" && m.content.value.call?.tool.case === "goBack")).toBe(true);
      expect(fake.bodies).toHaveLength(2);
      const got = await client.getSession({ sessionId: session!.id });
      const saidInHistory = got.history.filter((h) => h.entry.case === "agentMessage" && h.entry.value.content.case === "text" && h.entry.value.content.value.text === said);
      expect(saidInHistory).toHaveLength(1);
      expect(got.traces.map((t) => t.step)).toEqual([1, 2]);
    } finally {
      await server.close();
      await fake.stop();
    }
  });
});
