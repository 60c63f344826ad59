import type { TaskBudget } from "@baton/sdk/client";
import { UsageError } from "../command/args.js";

const example = "--budget tokens=200000,cost=0.50,time=10m";

/** Seconds from "90", "90s", "15m", "1h" or "1h30m". */
function seconds(text: string): number | undefined {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/i.exec(text.trim());
  if (!m || text.trim() === "" || (!m[1] && !m[2] && !m[3])) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

/**
 * Reads `--budget tokens=N,cost=USD,time=DURATION` (any of the three, in any order; a duration is
 * seconds or like 90s, 15m, 1h30m; a cost may start with "$"). Throws a UsageError saying what
 * is wrong; undefined when the flag is not given.
 */
export function budgetFromArg(value: string | boolean | undefined): TaskBudget | undefined {
  if (value === undefined) return undefined;
  if (value === true || value === false || !value.trim()) throw new UsageError(`--budget needs a ceiling, such as ${example}`);
  const b: { tokens?: number; costUsd?: number; seconds?: number } = {};
  for (const part of value.split(",")) {
    const [key = "", raw = ""] = part.split("=", 2).map((s) => s.trim());
    const v = raw.replace(/^\$/, "");
    if (key === "tokens") {
      if (!/^\d+$/.test(v.replace(/_/g, "")) || Number(v.replace(/_/g, "")) < 1) throw new UsageError(`--budget tokens=${raw}: give a whole number of tokens (input and output), such as tokens=200000`);
      b.tokens = Number(v.replace(/_/g, ""));
    } else if (key === "cost") {
      if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) throw new UsageError(`--budget cost=${raw}: give US dollars, such as cost=0.50`);
      b.costUsd = Number(v);
    } else if (key === "time") {
      const s = seconds(v);
      if (!s) throw new UsageError(`--budget time=${raw}: give a duration, such as time=90s, time=15m or time=1h30m`);
      b.seconds = s;
    } else {
      throw new UsageError(`--budget ${part.trim()}: the ceilings are tokens=, cost= and time= (such as ${example})`);
    }
  }
  return b;
}
