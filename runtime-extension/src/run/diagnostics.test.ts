import { describe, expect, it } from "vitest";
import { type DiagnosticsData, providerOf, record, rows } from "./diagnostics.js";

describe("diagnostics", () => {
  it("keeps per-provider, per-phase counts and success-only latency", () => {
    const data: DiagnosticsData = {};
    for (const ms of [100, 200, 300, 400]) record(data, "openai", "model", ms, true);
    record(data, "openai", "model", 90_000, false);
    record(data, "openai", "tool:click", 120, true);
    record(data, "script", "model", 5, true);
    const table = rows(data);
    expect(table.map((r) => `${r.provider}/${r.phase}`)).toEqual(["openai/model", "openai/tool:click", "script/model"]);
    // The failed 90 s call counts but does not drag the latency.
    expect(table[0]).toEqual({ provider: "openai", phase: "model", count: 5, ok: 4, p50: 200, p95: 400, mean: 250 });
  });

  it("shows a phase with no success without latencies", () => {
    const data: DiagnosticsData = {};
    record(data, "gemini", "model", 5000, false);
    expect(rows(data)).toEqual([{ provider: "gemini", phase: "model", count: 1, ok: 0 }]);
  });

  it("names the provider of a model", () => {
    expect(providerOf("openai:gpt-5-mini")).toBe("openai");
    expect(providerOf("script:shop.json")).toBe("script");
    expect(providerOf("")).toBe("default");
  });
});
