import { countTokens as count } from "gpt-tokenizer";

/** Tokens of a text with the o200k tokenizer (the GPT-4o/GPT-5 family). */
export function countTokens(text: string): number {
  return count(text);
}

/**
 * True when `text` has more than `limit` tokens. Byte-level BPE never makes more tokens than
 * UTF-8 bytes, so short texts are decided without tokenizing — the hot path of every turn.
 */
export function exceedsTokens(text: string, limit: number): boolean {
  if (Buffer.byteLength(text, "utf8") <= limit) return false;
  return count(text) > limit;
}
