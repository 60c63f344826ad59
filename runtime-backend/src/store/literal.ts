/** Bytes from bytea's hex text form (`\\x0a1b…`), as `pg` returns a bytea inside JSON or as text. */
export function fromHex(text: string): Uint8Array {
  const out = new Uint8Array((text.length - 2) / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
  return out;
}
