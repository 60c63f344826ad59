/**
 * The browser test page (`standalone/standalone-page.test.ts` bundles it with esbuild and opens it in
 * headless Chromium). `?run=suite` runs the store suite (`testing/store-suite.ts`, the same
 * assertions as in Node) on PGlite over IndexedDB; `?run=session&llm=URL` drives a session
 * through the standalone AgentService (in-memory Connect transport) against a fake
 * OpenAI-compatible server, and `&resume=SESSION` continues one after the page was closed
 * mid-step (`&steps=N`: the session visits N pages, then is done). Results are published on
 * `window.batonPage`.
 */
import { createClient } from "@connectrpc/connect";
import { type StepResponse } from "@baton/gen/baton/v1/agent_pb";
import { AgentService } from "@baton/gen/baton/v1/descriptors";
import { expect } from "chai";
import { OpenAiChatProvider } from "../providers/openai-chat.js";
import { migrate } from "../store/migrations.js";
import { openPgliteDb } from "../store/pglite-db.js";
import { expectResumedOnce } from "./resume-checks.js";
import { storeSuite } from "./store-suite.js";
import { startStandalone } from "../standalone/standalone.js";

/** What the page reports. */
export interface PageReport {
  done: boolean;
  /** Store suite: one entry per test. */
  tests: { name: string; ok: boolean; error?: string }[];
  /** Session run: the session id (published before the first step), and what happened. */
  sessionId?: string;
  /** Each step's calls as the client saw them. */
  log: string[];
  /** The session at the end: status, answer, the steps with a trace, the history's entry kinds. */
  session?: { status: number; answer: string; traceSteps: number[]; entries: string[] };
  error?: string;
}

const report: PageReport = { done: false, tests: [], log: [] };
(globalThis as { batonPage?: PageReport }).batonPage = report;
const params = new URLSearchParams(location.search);

async function runSuite(): Promise<void> {
  const tests: { name: string; fn: () => Promise<void> }[] = [];
  const before: (() => Promise<void>)[] = [];
  const after: (() => Promise<void>)[] = [];
  storeSuite(
    { it: (name, fn) => tests.push({ name, fn }), beforeAll: (fn) => before.push(fn), afterAll: (fn) => after.push(fn), expect: expect as never },
    async () => {
      const db = await openPgliteDb(`idb://baton-store-suite-${Date.now()}`);
      await migrate(db);
      return db;
    },
  );
  for (const fn of before) await fn();
  for (const t of tests) {
    try {
      await t.fn();
      report.tests.push({ name: t.name, ok: true });
    } catch (e) {
      report.tests.push({ name: t.name, ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  }
  for (const fn of after) await fn();
}

/** Answers every navigate call of a step as if the page had loaded. */
function results(sessionId: string, r: StepResponse) {
  const answers = r.messages.flatMap((m) =>
    m.content.case === "functionCall" && m.content.value.call?.tool.case === "navigate"
      ? [{ toolcallId: m.content.value.toolcallId, outcome: { case: "result" as const, value: { tool: { case: "navigate" as const, value: { url: m.content.value.call.tool.value.url, title: "ok" } } } } }]
      : [],
  );
  return { sessionId, input: { case: "toolResults" as const, value: { results: answers } } };
}

async function runSession(llm: string, resume: string | null, steps: number): Promise<void> {
  const key = "sk-user-own-key-0123456789";
  const standalone = await startStandalone({
    dataDir: "idb://baton-standalone",
    resolveModel: (spec) => ({ provider: new OpenAiChatProvider({ apiKey: key, baseURL: `${llm}/v1`, name: "chat" }), model: spec.split(":")[1] ?? "" }),
    secrets: [key],
  });
  const client = createClient(AgentService, standalone.transport);
  let id = resume;
  let r: StepResponse;
  if (!id) {
    const { session } = await client.createSession({ task: "Visit the three pages", model: "chat:fake" });
    id = session!.id;
    report.sessionId = id;
    r = await client.step({ sessionId: id });
  } else {
    report.sessionId = id;
    // The panel was closed while the model answered the last results: they were never
    // acknowledged, so the client sends them again (its journal has them).
    const before = await client.getSession({ sessionId: id });
    const pending = before.pendingCalls;
    report.log.push(`reopened at step ${before.session?.step}, status ${before.session?.status}, ${pending.length} call(s) pending, ${before.history.length} history entries`);
    r = await client.step(results(id, { messages: pending } as unknown as StepResponse));
  }
  // Until the session needs nothing more from the client (`done` runs in the agent itself).
  for (let next = results(id, r); next.input.value.results.length > 0; next = results(id, r)) {
    report.log.push(`step ${r.session?.step}: ${next.input.value.results.length} call(s)`);
    r = await client.step(next);
  }
  const got = await client.getSession({ sessionId: id });
  // The same checks as the SIGKILL test of `baton serve` (faults/crash-resume.test.ts).
  if (resume) expectResumedOnce(expect as never, got, steps);
  report.session = {
    status: got.session?.status ?? 0,
    answer: got.session?.answer ?? "",
    traceSteps: got.traces.map((t) => t.step),
    entries: got.history.map((h) => String(h.entry.case)),
  };
  await standalone.close();
}

const run = params.get("run");
(run === "suite" ? runSuite() : runSession(params.get("llm") ?? "", params.get("resume"), Number(params.get("steps") ?? 0))).then(
  () => {
    report.done = true;
  },
  (e: unknown) => {
    report.error = e instanceof Error ? `${e.message}\n${e.stack}` : String(e);
    report.done = true;
  },
);
