/**
 * Escape sequences, whole: CSI (`ESC [` or U+009B, parameters, intermediates, a final byte),
 * OSC, DCS, SOS, PM and APC strings up to their terminator (BEL, `ESC \` or U+009C; an
 * unterminated one runs to the end of the text, as a terminal would swallow it), and the other
 * `ESC` sequences (intermediate bytes, then a final one: `ESC c`, `ESC ( B`).
 */
const escapeSequence =
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[\x20-\x2f]*[\x30-\x7e]?/g;

/** Every other C0 control but `\n` and `\t`, DEL, and every C1 control. */
const control = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * Text a model or a page wrote, made safe to print on a terminal: escape sequences are removed
 * whole (an OSC 52 would write the clipboard, an OSC 8 hide a link, a CSI 2J clear the screen),
 * and every other C0 and C1 control but `\n` and `\t` is dropped (a `\r` could overwrite what
 * was printed). Everything `baton run` and `baton eval` print of such text goes through it.
 */
export function terminalText(text: string): string {
  return text.replace(escapeSequence, "").replace(control, "");
}

/** A stream that writes everything through {@link terminalText} (for output with no control sequences of its own). */
export function terminalStream(out: { write(text: string): unknown; readonly isTTY?: boolean }): { write(text: string): unknown; readonly isTTY?: boolean } {
  return {
    write: (text: string) => out.write(terminalText(text)),
    ...(out.isTTY !== undefined ? { isTTY: out.isTTY } : {}),
  };
}
