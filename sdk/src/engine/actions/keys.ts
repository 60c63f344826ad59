/** A key as `Input.dispatchKeyEvent` wants it. */
export interface KeyDef {
  readonly key: string;
  readonly code: string;
  readonly keyCode: number;
  /** The text the key types, if any. */
  readonly text?: string;
  /** Typing this character on a US keyboard needs Shift held. */
  readonly shift?: boolean;
}

/**
 * The US keyboard's printable keys: code, virtual key code, and the character without and
 * with Shift. Every printable ASCII character is typed as a real key press from this table.
 */
const usKeys: readonly [code: string, keyCode: number, plain: string, shifted: string][] = [
  ["Backquote", 192, "`", "~"],
  ["Digit1", 49, "1", "!"],
  ["Digit2", 50, "2", "@"],
  ["Digit3", 51, "3", "#"],
  ["Digit4", 52, "4", "$"],
  ["Digit5", 53, "5", "%"],
  ["Digit6", 54, "6", "^"],
  ["Digit7", 55, "7", "&"],
  ["Digit8", 56, "8", "*"],
  ["Digit9", 57, "9", "("],
  ["Digit0", 48, "0", ")"],
  ["Minus", 189, "-", "_"],
  ["Equal", 187, "=", "+"],
  ["BracketLeft", 219, "[", "{"],
  ["BracketRight", 221, "]", "}"],
  ["Backslash", 220, "\\", "|"],
  ["Semicolon", 186, ";", ":"],
  ["Quote", 222, "'", '"'],
  ["Comma", 188, ",", "<"],
  ["Period", 190, ".", ">"],
  ["Slash", 191, "/", "?"],
  ...[..."abcdefghijklmnopqrstuvwxyz"].map((c): [string, number, string, string] => [`Key${c.toUpperCase()}`, c.toUpperCase().charCodeAt(0), c, c.toUpperCase()]),
];

/** Printable ASCII characters by the key that types them. */
const printable = new Map<string, KeyDef>();
for (const [code, keyCode, plain, shifted] of usKeys) {
  printable.set(plain, { key: plain, code, keyCode, text: plain });
  printable.set(shifted, { key: shifted, code, keyCode, text: shifted, shift: true });
}
printable.set(" ", { key: " ", code: "Space", keyCode: 32, text: " " });

/** The key that types a printable ASCII character on a US keyboard; undefined for any other character. */
export function charKey(ch: string): KeyDef | undefined {
  return printable.get(ch);
}

const named: Record<string, KeyDef> = {
  Enter: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" },
  Tab: { key: "Tab", code: "Tab", keyCode: 9 },
  Escape: { key: "Escape", code: "Escape", keyCode: 27 },
  Backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
  Delete: { key: "Delete", code: "Delete", keyCode: 46 },
  ArrowUp: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  ArrowDown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  Home: { key: "Home", code: "Home", keyCode: 36 },
  End: { key: "End", code: "End", keyCode: 35 },
  PageUp: { key: "PageUp", code: "PageUp", keyCode: 33 },
  PageDown: { key: "PageDown", code: "PageDown", keyCode: 34 },
  Insert: { key: "Insert", code: "Insert", keyCode: 45 },
  " ": { key: " ", code: "Space", keyCode: 32, text: " " },
  Space: { key: " ", code: "Space", keyCode: 32, text: " " },
  Shift: { key: "Shift", code: "ShiftLeft", keyCode: 16 },
  Control: { key: "Control", code: "ControlLeft", keyCode: 17 },
  Alt: { key: "Alt", code: "AltLeft", keyCode: 18 },
  Meta: { key: "Meta", code: "MetaLeft", keyCode: 91 },
};
const aliases: Record<string, string> = {
  Esc: "Escape",
  Return: "Enter",
  Ctrl: "Control",
  Cmd: "Meta",
  Command: "Meta",
  Option: "Alt",
  Up: "ArrowUp",
  Down: "ArrowDown",
  Left: "ArrowLeft",
  Right: "ArrowRight",
  Del: "Delete",
};
for (let i = 1; i <= 12; i++) named[`F${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

/** Modifier bits of `Input.dispatchKeyEvent` / `dispatchMouseEvent`. */
export const modifierBits: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

/** Resolves a key name ("Enter", "a", "Ctrl") to its definition; undefined when unknown. */
export function keyDef(name: string): KeyDef | undefined {
  const canonical = aliases[name] ?? aliases[name.charAt(0).toUpperCase() + name.slice(1).toLowerCase()] ?? name;
  const def = named[canonical] ?? named[canonical.charAt(0).toUpperCase() + canonical.slice(1).toLowerCase()];
  if (def) return def;
  if ([...name].length !== 1) return undefined;
  return printable.get(name) ?? { key: name, code: "", keyCode: 0, text: name };
}

/** Splits a chord such as "Control+Shift+k" (a lone "+" is the plus key). */
export function parseChord(chord: string): string[] | undefined {
  if (chord === "+") return ["+"];
  // A part of only spaces is the space bar (" ", "Control+ "), not an empty name.
  const parts = chord.split("+").map((p) => (p !== "" && p.trim() === "" ? " " : p.trim()));
  if (chord.endsWith("++")) parts.splice(parts.length - 2, 2, "+");
  if (parts.some((p) => p === "")) return undefined;
  return parts;
}
