/**
 * What a tool handler's context may say about where a `type_text` call's text may go. The
 * secrets layer sets it when the text holds a secret scoped to origins; the engine checks the
 * field's own frame against it when it resolves the field and again just before the keys go
 * out (an iframe of another origin on an allowed page never gets the value).
 */
export interface TypingScope {
  /** Origins ("https://app.example.com") the field's frame must be on; absent: anywhere. */
  readonly typeOnlyOn?: readonly string[];
}

/** The origins a handler's context restricts typing to, if it does (any context type may carry them). */
export function typingOrigins(ctx: unknown): readonly string[] | undefined {
  const only = (ctx as TypingScope | undefined)?.typeOnlyOn;
  return Array.isArray(only) ? only : undefined;
}
