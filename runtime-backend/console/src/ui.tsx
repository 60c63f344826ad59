/** Small shared pieces of the console's pages. */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { errorText } from "./client.js";
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

/**
 * A form's submit handler: no page load, `action` runs, and its failure reaches `onError` as
 * the text the console shows for it.
 */
export function onSubmitRun(action: () => Promise<void>, onError: (e: string) => void) {
  return async (e: Event) => {
    e.preventDefault();
    try {
      await action();
    } catch (err) {
      onError(errorText(err));
    }
  };
}

/** A one-line form that creates something by name; the field clears once `create` succeeds, a failure goes to `onError`. */
export function InlineCreate(p: {
  field: string;
  placeholder: string;
  button: string;
  maxLength?: number;
  create: (value: string) => Promise<void>;
  onError: (e: string) => void;
}) {
  const [value, setValue] = useState("");
  return (
    <form
      class="inline"
      onSubmit={onSubmitRun(async () => {
        await p.create(value);
        setValue("");
      }, p.onError)}
    >
      <input aria-label={p.field} placeholder={p.placeholder} value={value} onInput={(e) => setValue(e.currentTarget.value)} {...(p.maxLength ? { maxLength: p.maxLength } : {})} />
      <button type="submit">{p.button}</button>
    </form>
  );
}

/** A secret shown once (a new token, a sign-in link), with what it is. */
export function ShownOnce(p: { label: string; secret: string | undefined }) {
  return p.secret ? (
    <div class="banner banner-ok" role="status">
      {p.label}: <code class="select-all">{p.secret}</code>
    </div>
  ) : null;
}
