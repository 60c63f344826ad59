/** How the console writes numbers, times and states. */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { type Session, SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { Risk } from "@baton/gen/baton/v1/options_pb";

/** A timestamp as a Date (epoch when unset). */
export function dateOf(t: Timestamp | undefined): Date {
  return new Date(Number(t?.seconds ?? 0n) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6));
}

/** "3 min ago", "yesterday", or a date. */
export function ago(t: Timestamp | undefined): string {
  if (!t) return "never";
  const s = (Date.now() - dateOf(t).getTime()) / 1000;
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  if (s < 172_800) return "yesterday";
  return dateOf(t).toLocaleDateString(undefined, { month: "short", day: "numeric", year: "numeric" });
}

/** A date and time, to the minute. */
export function when(t: Timestamp | undefined): string {
  return t ? dateOf(t).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }) : "—";
}

/** US dollars, with sub-cent precision for small amounts. */
export function money(n: number): string {
  if (n === 0) return "$0";
  if (n < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toFixed(2)}`;
}

/** 1234567 → "1.2M". */
export function count(n: number | bigint): string {
  const v = Number(n);
  if (v >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (v >= 1e4) return `${Math.round(v / 1e3)}k`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(1)}k`;
  return String(v);
}

/** Milliseconds as "820 ms" or "3.4 s". */
export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A session status's label and tone. */
export const statusLabel: Record<SessionStatus, [string, string]> = {
  [SessionStatus.UNSPECIFIED]: ["Unknown", "muted"],
  [SessionStatus.IDLE]: ["Idle", "muted"],
  [SessionStatus.RUNNING]: ["Running", "live"],
  [SessionStatus.AWAITING_TOOLS]: ["Acting", "live"],
  [SessionStatus.AWAITING_APPROVAL]: ["Needs approval", "warn"],
  [SessionStatus.COMPLETED]: ["Completed", "ok"],
  [SessionStatus.STOPPED]: ["Stopped", "muted"],
  [SessionStatus.FAILED]: ["Failed", "bad"],
  [SessionStatus.BUDGET_EXHAUSTED]: ["Budget reached", "warn"],
};

/** True while a session may still take steps (stop applies). */
export function isActive(s: SessionStatus): boolean {
  return s === SessionStatus.RUNNING || s === SessionStatus.AWAITING_TOOLS || s === SessionStatus.AWAITING_APPROVAL;
}

/**
 * The outcome a person would call a session: its status, except that a session whose client
 * checked the work and found it wanting (its verdict) has failed, whatever the agent claimed.
 */
export function outcomeOf(s: Session): SessionStatus {
  return s.verdict && !s.verdict.passed ? SessionStatus.FAILED : s.status;
}

/** Why a session failed or ended at its budget, in words: its client's verdict, else the backend's reason. */
export function failureOf(s: Session): string {
  if (s.verdict && !s.verdict.passed) return `Checked by the client: ${s.verdict.reason || "its checks did not hold"}`;
  return s.status === SessionStatus.FAILED || s.status === SessionStatus.BUDGET_EXHAUSTED ? s.reason : "";
}

/** How each action class (a call's risk) reads in the console. */
export const riskLabel: Record<Risk, string> = {
  [Risk.UNSPECIFIED]: "Any action",
  [Risk.READ_ONLY]: "Reading",
  [Risk.MUTATING]: "Changes (typing, clicking)",
  [Risk.IRREVERSIBLE]: "Irreversible actions (paying, sending, deleting)",
};
