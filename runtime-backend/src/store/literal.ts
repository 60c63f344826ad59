import { hexOf } from "../base/hex.js";

/**
 * SQL literals for the embedded engine's batches. Quoting follows Postgres with
 * standard_conforming_strings on (the default): a string is wrapped in single quotes with
 * each quote doubled, and nothing else is special. NUL cannot be stored in text, so it is
 * rejected rather than silently truncated. Bytes are written in bytea's hex form.
 */
export function literal(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new Error(`cannot store ${v} in SQL`);
    return String(v);
  }
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (v instanceof Date) return `'${v.toISOString()}'`;
  if (v instanceof Uint8Array) return `'${byteaHex(v)}'`;
  if (Array.isArray(v)) return v.length ? `ARRAY[${v.map(literal).join(", ")}]` : "'{}'";
  const s = typeof v === "string" ? v : JSON.stringify(v);
  if (s.includes("\u0000")) throw new Error("NUL characters cannot be stored");
  return `'${s.replace(/'/g, "''")}'`;
}

/** Bytes in bytea's hex input form (`\\x0a1b…`), as text. */
export function byteaHex(v: Uint8Array): string {
  return `\\x${hexOf(v)}`;
}

/** Replaces `$1`… in a statement written by this package with literals of `params`. */
export function inlineParams(sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new Error(`no parameter $${n}`);
    return literal(params[i]);
  });
}

/** Bytes from bytea's hex text form (`\\x0a1b…`), as `pg` returns a bytea inside JSON or as text. */
export function fromHex(text: string): Uint8Array {
  const out = new Uint8Array((text.length - 2) / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
  return out;
}
