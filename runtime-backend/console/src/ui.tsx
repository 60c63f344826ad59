/** Small shared pieces of the console's pages. */
import type { ComponentChildren } from "preact";
import type { SessionStatus } from "@baton/gen/baton/v1/agent_pb";
import { statusLabel } from "./format.js";

/** A page's title row with its actions. */
export function PageHeader(p: { title: string; sub?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1>{p.title}</h1>
        {p.sub ? <p class="sub">{p.sub}</p> : null}
      </div>
      <div class="actions">{p.children}</div>
    </header>
  );
}

/** A session status as a coloured pill. */
export function StatusPill(p: { status: SessionStatus }) {
  const [label, tone] = statusLabel[p.status] ?? ["Unknown", "muted"];
  return <span class={`pill pill-${tone}`}>{label}</span>;
}

/** An error line (role alert, so it is read out). */
export function ErrorNote(p: { error: string | undefined }) {
  return p.error ? (
    <p class="error" role="alert">
      {p.error}
    </p>
  ) : null;
}

/** What an empty list says. */
export function Empty(p: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{p.title}</p>
      {p.children ? <p>{p.children}</p> : null}
    </div>
  );
}

/** A labelled figure in a row of stats. */
export function Stat(p: { label: string; value: ComponentChildren; hint?: string }) {
  return (
    <div class="stat">
      <div class="stat-label">{p.label}</div>
      <div class="stat-value">{p.value}</div>
      {p.hint ? <div class="stat-hint">{p.hint}</div> : null}
    </div>
  );
}
