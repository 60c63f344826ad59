/** Usage per day and model as a chart, today's use against the quota, and the default budget per session. */
import type { Budget } from "@baton/gen/baton/v1/agent_pb";
import type { Account, GetUsageResponse, UsageRow } from "@baton/gen/baton/v1/console_pb";
import { useEffect, useState } from "preact/hooks";
import { consoleApi, errorText } from "../client.js";
import { count, money, when } from "../format.js";
import { ErrorNote, onSubmitRun, PageHeader, Stat } from "../ui.js";

const palette = ["#4f46e5", "#0ea5e9", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#64748b"];

function Chart(p: { rows: UsageRow[]; days: number; metric: "cost" | "steps" }) {
  const value = (r: UsageRow) => (p.metric === "cost" ? r.costUsd : r.steps);
  const models = [...new Set(p.rows.map((r) => r.model))];
  const today = new Date();
  const days = Array.from({ length: p.days }, (_, i) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (p.days - 1 - i))).toISOString().slice(0, 10));
  const totals = days.map((d) => p.rows.filter((r) => r.day === d).reduce((a, r) => a + value(r), 0));
  const max = Math.max(...totals, p.metric === "cost" ? 0.01 : 1);
  const w = 720;
  const h = 170;
  const bw = w / days.length;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${w} ${h + 24}`} role="img" aria-label={`${p.metric === "cost" ? "Cost" : "Steps"} per day for the last ${p.days} days`}>
        {[0.25, 0.5, 0.75, 1].map((f) => (
          <line x1="0" x2={w} y1={h - f * h} y2={h - f * h} class="grid" />
        ))}
        {days.map((d, i) => {
          let y = h;
          return models.map((m, mi) => {
            const r = p.rows.find((x) => x.day === d && x.model === m);
            if (!r) return null;
            const bh = (value(r) / max) * (h - 8);
            y -= bh;
            return (
              <rect x={i * bw + bw * 0.15} y={y} width={bw * 0.7} height={Math.max(bh, 1)} rx="2" fill={palette[mi % palette.length]}>
                <title>{`${d} · ${m}: ${p.metric === "cost" ? money(r.costUsd) : `${r.steps} steps`}`}</title>
              </rect>
            );
          });
        })}
        {days.map((d, i) => ((days.length - 1 - i) % Math.ceil(days.length / 8) === 0 ? <text x={i * bw + bw / 2} y={h + 16} class="axis">{d.slice(5)}</text> : null))}
      </svg>
      <figcaption class="legend">
        {models.map((m, i) => (
          <span>
            <i style={{ background: palette[i % palette.length] }} />
            {m}
          </span>
        ))}
        <span class="muted">max {p.metric === "cost" ? money(max) : max} per day</span>
      </figcaption>
    </figure>
  );
}

/** What a budget allows, in words ("no ceiling" when it has none). */
function budgetText(b: Budget | undefined): string {
  const parts = [b?.tokens ? `${count(b.tokens)} tokens` : "", b?.costUsd ? money(b.costUsd) : "", b?.seconds ? `${Math.round(b.seconds / 60)} min` : ""].filter(Boolean);
  return parts.length ? parts.join(" · ") : "no ceiling";
}

/** The signed-in user's default budget: the ceiling every new session that names none gets. */
function DefaultBudget(p: { onError: (e: string) => void }) {
  const [saved, setSaved] = useState<Budget>();
  const [tokens, setTokens] = useState("");
  const [cost, setCost] = useState("");
  const [minutes, setMinutes] = useState("");
  const show = (b: Budget | undefined) => {
    setSaved(b);
    setTokens(b?.tokens ? String(b.tokens) : "");
    setCost(b?.costUsd ? String(b.costUsd) : "");
    setMinutes(b?.seconds ? String(Math.round(b.seconds / 60)) : "");
  };
  useEffect(() => {
    consoleApi.getAccount({}).then(
      (r) => show(r.defaultBudget),
      (e) => p.onError(errorText(e)),
    );
  }, []);
  return (
    <div class="card">
      <h2>Default budget per session</h2>
      <p class="muted small">
        Each new session that names no budget of its own may spend at most this (empty: no ceiling). Near a ceiling the model is told what is left; at it the session ends as "Budget
        reached". Now: <b data-testid="default-budget">{saved ? budgetText(saved) : "…"}</b>
      </p>
      <form
        class="inline"
        onSubmit={onSubmitRun(async () => {
          const r = await consoleApi.setDefaultBudget({ budget: { tokens: BigInt(Math.max(0, Math.floor(Number(tokens) || 0))), costUsd: Number(cost) || 0, seconds: Math.round((Number(minutes) || 0) * 60) } });
          show(r.budget);
        }, p.onError)}
      >
        <input aria-label="Tokens per session" class="short" inputMode="numeric" placeholder="tokens" value={tokens} onInput={(e) => setTokens(e.currentTarget.value)} />
        <input aria-label="Cost per session (USD)" class="short" inputMode="decimal" placeholder="$ / session" value={cost} onInput={(e) => setCost(e.currentTarget.value)} />
        <input aria-label="Minutes per session" class="short" inputMode="numeric" placeholder="minutes" value={minutes} onInput={(e) => setMinutes(e.currentTarget.value)} />
        <button type="submit">Save budget</button>
      </form>
    </div>
  );
}

/** The usage page. */
export function UsagePage(p: { account: Account }) {
  const [u, setU] = useState<GetUsageResponse>();
  const [metric, setMetric] = useState<"cost" | "steps">("cost");
  const [error, setError] = useState<string>();
  useEffect(() => {
    consoleApi.getUsage({ days: 30 }).then(
      (r) => {
        setU(r);
        // Models without a price (local, scripted) cost nothing: show what they did instead.
        if (r.rows.every((x) => x.costUsd === 0)) setMetric("steps");
      },
      (e) => setError(errorText(e)),
    );
  }, []);
  const q = u?.quota;
  const byModel = new Map<string, UsageRow>();
  for (const r of u?.rows ?? []) {
    const m = byModel.get(r.model);
    byModel.set(r.model, m ? { ...m, steps: m.steps + r.steps, inputTokens: m.inputTokens + r.inputTokens, outputTokens: m.outputTokens + r.outputTokens, costUsd: m.costUsd + r.costUsd } : r);
  }
  return (
    <section>
      <PageHeader title="Usage" sub={`${p.account.name}'s model calls over the last 30 days (UTC).`} />
      <ErrorNote error={error} />
      {u ? (
        <>
          <div class="stats">
            <Stat label="Cost today" value={money(u.costTodayUsd)} hint={q?.dailyCostUsd ? `of ${money(q.dailyCostUsd)} daily quota` : "no cost quota"} />
            <Stat label="Steps today" value={String(u.stepsToday)} hint={q?.dailySteps ? `of ${q.dailySteps} daily quota` : "no step quota"} />
            <Stat label="30-day cost" value={money(u.rows.reduce((a, r) => a + r.costUsd, 0))} />
            <Stat label="Resets" value={when(u.resetsAt)} />
          </div>
          {q?.dailySteps || q?.dailyCostUsd ? (
            <div class="quota-bars">
              {q.dailyCostUsd ? <Meter label="Cost quota" used={u.costTodayUsd} limit={q.dailyCostUsd} text={`${money(u.costTodayUsd)} / ${money(q.dailyCostUsd)}`} /> : null}
              {q.dailySteps ? <Meter label="Step quota" used={u.stepsToday} limit={q.dailySteps} text={`${u.stepsToday} / ${q.dailySteps}`} /> : null}
            </div>
          ) : null}
          <DefaultBudget onError={setError} />
          <div class="card">
            <div class="card-head">
              <h2>Per day</h2>
              <div class="segmented" role="group" aria-label="Measure">
                <button type="button" aria-pressed={metric === "cost"} onClick={() => setMetric("cost")}>
                  Cost
                </button>
                <button type="button" aria-pressed={metric === "steps"} onClick={() => setMetric("steps")}>
                  Steps
                </button>
              </div>
            </div>
            <Chart rows={u.rows} days={30} metric={metric} />
          </div>
          <div class="card">
            <h2>Per model</h2>
            <table class="table">
              <thead>
                <tr>
                  <th>Model</th>
                  <th class="num">Steps</th>
                  <th class="num">Tokens in</th>
                  <th class="num">Tokens out</th>
                  <th class="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {[...byModel.values()].map((r) => (
                  <tr>
                    <td class="mono">{r.model}</td>
                    <td class="num">{r.steps}</td>
                    <td class="num">{count(r.inputTokens)}</td>
                    <td class="num">{count(r.outputTokens)}</td>
                    <td class="num">{money(r.costUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}

function Meter(p: { label: string; used: number; limit: number; text: string }) {
  const pct = Math.min(100, (p.used / p.limit) * 100);
  return (
    <div class="meter">
      <div class="meter-head">
        <span>{p.label}</span>
        <span>{p.text}</span>
      </div>
      <div class="meter-track" role="meter" aria-label={p.label} aria-valuemin={0} aria-valuemax={p.limit} aria-valuenow={p.used}>
        <div class={`meter-fill ${pct >= 100 ? "full" : pct > 80 ? "high" : ""}`} style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
