/** The pieces every settings form is made of. */

/** A settings form's footer: the last message and its submit button. */
export function FormActions(p: { message: string; label: string; disabled?: boolean }) {
  return (
    <div class="settings-actions">
      {p.message ? (
        <span class="form-note" role="status">
          {p.message}
        </span>
      ) : null}
      <button type="submit" class="btn primary" disabled={p.disabled ?? false}>
        {p.label}
      </button>
    </div>
  );
}

/** The id of a {@link Field}'s error, for its input's `aria-describedby`. */
export const fieldErrorId = (id: string): string => `${id}-error`;

/**
 * A labelled field with optional help below it, and the error that keeps it from being saved (an
 * alert, with the id {@link fieldErrorId} gives, so the input can name it in `aria-describedby`).
 */
export function Field(p: { id: string; label: string; help?: string; error?: string; children: preact.ComponentChildren }) {
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      {p.children}
      {p.error ? (
        <p id={fieldErrorId(p.id)} class="form-error" role="alert">
          {p.error}
        </p>
      ) : null}
      {p.help ? <p class="help">{p.help}</p> : null}
    </div>
  );
}
