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

/** A labelled field with optional help below it. */
export function Field(p: { id: string; label: string; help?: string; children: preact.ComponentChildren }) {
  return (
    <div class="field">
      <label for={p.id}>{p.label}</label>
      {p.children}
      {p.help ? <p class="help">{p.help}</p> : null}
    </div>
  );
}
