import { useState } from "preact/hooks";
import type { Settings } from "../settings.js";
import { Field } from "./form-parts.js";

type Budget = Settings["budget"];

/** A number typed in a field, as a ceiling: a positive finite number, 0 when empty or not one. */
function ceiling(text: string): number {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** The three ceilings as fields: each one's label, step, and how what is typed maps to the budget and back. */
const measures: readonly { key: keyof Budget; label: string; step: number; read: (text: string) => number; show: (v: number) => string }[] = [
  { key: "tokens", label: "Tokens", step: 1000, read: (t) => Math.floor(ceiling(t)), show: String },
  { key: "costUsd", label: "Cost (US$)", step: 0.01, read: ceiling, show: String },
  { key: "seconds", label: "Minutes", step: 1, read: (t) => Math.round(ceiling(t) * 60), show: (s) => String(s / 60) },
];

/**
 * Settings' "Budget per task": the most tokens, US dollars and minutes a new task may spend. The
 * run sends them as the session's budget; at a ceiling the task ends with "Budget reached".
 */
export function BudgetFields(p: { draft: Settings; set: (change: Partial<Settings>) => void }) {
  const b = p.draft.budget;
  // What is typed, kept as typed: "0." on the way to "0.05" is no number yet, and must stay in the field.
  const [text, setText] = useState(() => Object.fromEntries(measures.map((m) => [m.key, b[m.key] ? m.show(b[m.key]) : ""])) as Record<keyof Budget, string>);
  return (
    <fieldset>
      <legend>Budget per task</legend>
      <p class="help budget-help">
        A task stops with "Budget reached" when it has used this much (checked before each model call, never in the middle of an action). Empty: no ceiling on it
        {p.draft.backendUrl.trim() ? ", or your default budget on the backend when all three are empty" : ""}.
      </p>
      <div class="budget-fields">
        {measures.map((m) => (
          <Field key={m.key} id={`set-budget-${m.key}`} label={m.label}>
            <input
              id={`set-budget-${m.key}`}
              type="number"
              min={0}
              step={m.step}
              value={text[m.key]}
              onInput={(e) => {
                const typed = e.currentTarget.value;
                setText({ ...text, [m.key]: typed });
                p.set({ budget: { ...b, [m.key]: m.read(typed) } });
              }}
              placeholder="No limit"
            />
          </Field>
        ))}
      </div>
    </fieldset>
  );
}
