/**
 * OpenTelemetry from the `baton` commands, read the way a collector reads it: a real OTLP/HTTP
 * receiver on 127.0.0.1 decodes each export with the OpenTelemetry protos, while `baton eval`
 * and `baton serve` run as child processes with nothing but the standard OTEL_* variables set.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { AgentService, type StepResponse, StepRequestSchema } from "@baton/gen/baton/v1/agent_pb";
import { sessionTraceId } from "@baton/backend/log";
import { type AttrValue, type ReceivedSpan, startOtlpReceiver } from "@baton/backend/testing/otlp-receiver";
import { openDb } from "@baton/backend/store";
import { trace } from "@opentelemetry/api";
import { afterAll, describe, expect, it } from "vitest";
import { type BackendProcess, startBackendProcess } from "../testing/backend-process.js";
import { telemetryWanted } from "./telemetry.js";

const bin = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "baton-otel-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An operator's key in the environment: it must never reach a span. */
const secret = "sk-otel-test-9f8e7d6c5b4a39281706";

/** The environment of a child `baton`: the test's, without any OTEL_* it may carry, plus `extra`. */
function childEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OTEL_")) env[k] = v;
  return { ...env, BATON_LOG_LEVEL: "warn", OPENAI_API_KEY: secret, OTEL_BSP_SCHEDULE_DELAY: "200", ...extra };
}

/** Every string an export carried: span and resource attribute values, span names. */
function strings(spans: readonly ReceivedSpan[]): string[] {
  const flat = (v: AttrValue): string[] => (Array.isArray(v) ? v.flatMap(flat) : typeof v === "string" ? [v] : []);
  return spans.flatMap((s) => [s.name, ...Object.values(s.attributes).flatMap(flat), ...Object.values(s.resource).flatMap(flat)]);
}

function byName(spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] {
  return spans.filter((s) => s.name === name);
}

describe("telemetry switches", () => {
  it("is wanted only when an endpoint or exporter is named, and never when the SDK is disabled", () => {
    expect(telemetryWanted({})).toBe(false);
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:4318/v1/traces" })).toBe(true);
    expect(telemetryWanted({ OTEL_TRACES_EXPORTER: "console" })).toBe(true);
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_EXPORTER: "none" })).toBe(false);
  });

  it("without an SDK the loop's spans are the API's no-ops", () => {
    // This process never started telemetry: nothing is recorded, nothing is exported.
    expect(trace.getTracer("baton").startSpan("x").isRecording()).toBe(false);
  });

  it("derives one trace id per session, the same in every process", () => {
    expect(sessionTraceId("ses_abc")).toMatch(/^[0-9a-f]{32}$/);
    expect(sessionTraceId("ses_abc")).toBe(sessionTraceId("ses_abc"));
    expect(sessionTraceId("ses_abc")).not.toBe(sessionTraceId("ses_abd"));
  });
});

describe("an exported trace", { timeout: 300_000 }, () => {
  it("of a baton eval task: the session's agent steps, model calls and tool calls, decoded, with nothing sensitive", async () => {
    const receiver = await startOtlpReceiver();
    try {
      const out = join(dir, "eval.jsonl");
      const child = spawn(process.execPath, [bin, "eval", "--filter", "shop/coupon", "--data-dir", join(dir, "eval-store"), "--out", out], {
        env: childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr.on("data", (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((r) => child.once("exit", r));
      expect(code, output).toBe(0);
      const row = JSON.parse(readFileSync(out, "utf8").trim()) as { session_id: string; verdict: string };
      expect(row.verdict).toBe("pass");
      const traceId = sessionTraceId(row.session_id);
      // The command flushed before it exited: everything is here.
      const spans = receiver.spans().filter((s) => s.traceId === traceId);
      expect(receiver.spans().length).toBe(spans.length);

      const names = new Set(spans.map((s) => s.name));
      for (const n of ["invoke_agent baton", "chat scripts/shop/coupon.json", "execute_tool take_snapshot", "execute_tool type_text", "execute_tool click", "execute_tool wait_for", "execute_tool done", "eval_task shop/coupon"]) {
        expect(names, `span ${n}`).toContain(n);
      }
      const agents = byName(spans, "invoke_agent baton");
      const agentIds = new Set(agents.map((s) => s.spanId));
      // One step request per client round: the first, then each batch of tool results.
      expect(agents.length).toBe(3);
      for (const a of agents) {
        expect(a.parentSpanId).toBe("");
        expect(a.attributes).toMatchObject({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "baton", "gen_ai.conversation.id": row.session_id });
      }
      expect(agents.map((a) => a.attributes["baton.input"])).toEqual(["user_message", "tool_results", "tool_results"]);
      expect(agents.map((a) => a.attributes["baton.outcome"])).toEqual(["awaiting_tools", "awaiting_tools", "completed"]);

      const chats = byName(spans, "chat scripts/shop/coupon.json");
      expect(chats.length).toBe(3);
      for (const c of chats) {
        expect(agentIds).toContain(c.parentSpanId);
        expect(c.kind).toBe(3); // CLIENT
        expect(c.attributes).toMatchObject({
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": "script",
          "gen_ai.request.model": "scripts/shop/coupon.json",
          "gen_ai.conversation.id": row.session_id,
          "baton.outcome": "ok",
          "baton.cost_usd": 0,
        });
        expect(c.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
        expect(typeof c.attributes["gen_ai.usage.output_tokens"]).toBe("number");
        expect(c.endMs).toBeGreaterThanOrEqual(c.startMs);
      }
      expect(chats.map((c) => c.attributes["baton.step"])).toEqual([1, 2, 3]);
      expect(chats.map((c) => c.attributes["baton.tool_calls"])).toEqual([1, 3, 1]);

      const typed = byName(spans, "execute_tool type_text")[0] as ReceivedSpan;
      expect(typed.parentSpanId).toBe(""); // recorded when its result arrived, between step requests
      expect(typed.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "type_text", "gen_ai.tool.type": "function", "baton.tool.side": "client", "baton.outcome": "ok", "baton.step": 2 });
      expect(typed.attributes["gen_ai.tool.call.id"]).toMatch(/^call_2_\d$/);
      const done = byName(spans, "execute_tool done")[0] as ReceivedSpan;
      expect(agentIds).toContain(done.parentSpanId);
      expect(done.attributes).toMatchObject({ "gen_ai.tool.name": "done", "baton.tool.side": "backend", "baton.outcome": "ok" });

      const task = byName(spans, "eval_task shop/coupon")[0] as ReceivedSpan;
      expect(task.attributes).toMatchObject({ "baton.eval.task": "shop/coupon", "baton.eval.verdict": "pass", "baton.eval.attempt": 1, "gen_ai.conversation.id": row.session_id });
      expect(task.startMs).toBeLessThanOrEqual(Math.min(...agents.map((a) => a.startMs)));

      expect(spans[0]?.resource).toMatchObject({ "service.name": "baton", "baton.command": "eval" });
      expect(Object.keys(spans[0]?.resource ?? {}).filter((k) => k.startsWith("process.command"))).toEqual([]);
      // No prompt, page or typed text, no key: the goal, the coupon typed, the page's products.
      const all = strings(spans).join("\n");
      for (const text of ["coupon code", "WELCOME10", "Matte black", "Kettle", secret]) expect(all, text).not.toContain(text);
    } finally {
      await receiver.close();
    }
  });

  const pgUrl = process.env.BATON_TEST_DATABASE_URL;

  it("of a baton serve session stepped through two replicas (Postgres) or one: one trace, from every process", async () => {
    const receiver = await startOtlpReceiver();
    const token = "bt_otel_test_token_0123456789";
    const scripts = join(dir, "scripts");
    mkdirSync(scripts, { recursive: true });
    writeFileSync(
      join(scripts, "serve.json"),
      JSON.stringify({ turns: [{ calls: [{ name: "take_snapshot" }] }, { calls: [{ name: "click", args: { ref: "e1" } }] }, { calls: [{ name: "done", args: { answer: "done" } }] }] }),
    );
    let store: string[];
    if (pgUrl) {
      // A clean schema: the test database is disposable.
      const db = await openDb({ databaseUrl: pgUrl });
      await db.exec("drop schema public cascade; create schema public");
      await db.close();
      store = ["--database-url", pgUrl];
    } else {
      store = ["--data-dir", join(dir, "serve-store")];
    }
    const env = { ...childEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }), BATON_API_TOKEN: token };
    const procs: BackendProcess[] = [];
    try {
      const start = () => startBackendProcess([...store, "--script-dir", scripts, "--model", "script:serve.json"], env).then((p) => (procs.push(p), p));
      const a = await start();
      const b = pgUrl ? await start() : a;
      const client = (p: BackendProcess) =>
        createClient(AgentService, createConnectTransport({ baseUrl: p.url, httpVersion: "1.1", interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${token}`), next(req))] }));
      const pageText = "Quarterly revenue rose to 42 million";
      const results = (id: string, r: StepResponse) =>
        create(StepRequestSchema, {
          sessionId: id,
          input: {
            case: "toolResults",
            value: {
              results: r.messages.flatMap((m) =>
                m.content.case !== "functionCall"
                  ? []
                  : [
                      m.content.value.call?.tool.case === "takeSnapshot"
                        ? { toolcallId: m.content.value.toolcallId, outcome: { case: "result" as const, value: { tool: { case: "takeSnapshot" as const, value: { url: "http://127.0.0.1/report", title: "Report", text: `[e1] button "${pageText}"` } } } } }
                        : { toolcallId: m.content.value.toolcallId, outcome: { case: "error" as const, value: { code: 4, message: `stale: ${pageText}` } } },
                    ],
              ),
            },
          },
        });
      const { session } = await client(a).createSession({ task: "Summarise the quarterly report" });
      const id = session?.id ?? "";
      let r = await client(a).step({ sessionId: id });
      r = await client(b).step(results(id, r));
      r = await client(a).step(results(id, r));
      expect(r.session?.answer).toBe("done");
      const traceId = sessionTraceId(id);
      // A server exports in batches while it runs: wait for the last step's spans.
      const spans = (await receiver.waitFor((all) => all.filter((s) => s.traceId === traceId && s.name === "invoke_agent baton").length === 3)).filter((s) => s.traceId === traceId);
      const names = spans.map((s) => s.name);
      for (const n of ["invoke_agent baton", "chat serve.json", "execute_tool take_snapshot", "execute_tool click", "execute_tool done"]) expect(names).toContain(n);
      const click = byName(spans, "execute_tool click")[0] as ReceivedSpan;
      expect(click.attributes).toMatchObject({ "baton.outcome": "error", "error.type": "STALE_REF", "baton.tool.side": "client" });
      expect(click.statusCode).toBe(2);
      expect(spans.every((s) => s.resource["baton.command"] === "serve")).toBe(true);
      if (pgUrl) {
        // Steps served by both replicas, one trace: each process exported its own spans of it.
        expect(new Set(spans.map((s) => s.resource["service.instance.id"])).size).toBe(2);
      }
      const all = strings(spans).join("\n");
      for (const text of [pageText, "quarterly report", secret, token]) expect(all, text).not.toContain(text);
    } finally {
      for (const p of procs) await p.kill();
      await receiver.close();
    }
  });
});
