import { countTokens as count } from "gpt-tokenizer";

/** Tokens of a text with the o200k tokenizer (the GPT-4o/GPT-5 family). */
export function countTokens(text: string): number {
  return count(text);
}

/** Token counts of single lines (with their newline), kept across turns. */
const lineTokens = new Map<string, number>();
const maxCachedLines = 50_000;

function countLine(line: string): number {
  let n = lineTokens.get(line);
  if (n === undefined) {
    n = count(line);
    if (lineTokens.size >= maxCachedLines) lineTokens.clear();
    lineTokens.set(line, n);
  }
  return n;
}

/**
 * True when `text` has more than `limit` tokens. Byte-level BPE never makes more tokens than
 * UTF-8 bytes, so short texts are decided without tokenizing — the hot path of every turn.
 * Longer texts are counted line by line (each with its "\n"), from counts cached across
 * turns: a context repeats most of its lines from one turn to the next. The o200k
 * pre-tokenizer never joins a line's newline with the next line unless that line is empty or
 * starts with whitespace, so the sum is exact except at such boundaries; only a sum within
 * that margin of the limit is settled by tokenizing the whole text.
 */
export function exceedsTokens(text: string, limit: number): boolean {
  if (Buffer.byteLength(text, "utf8") <= limit) return false;
  const lines = text.split("\n");
  let estimate = 0;
  let loose = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (i > 0 && (line === "" || /^\s/.test(line))) loose++;
    estimate += countLine(i < lines.length - 1 ? `${line}\n` : line);
  }
  const margin = 2 * loose + 4;
  if (estimate > limit + margin) return true;
  if (estimate < limit - margin) return false;
  return count(text) > limit;
}
