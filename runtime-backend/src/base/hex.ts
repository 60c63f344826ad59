/** ASCII codes of the hex digits. */
const digits = new TextEncoder().encode("0123456789abcdef");

const ascii = new TextDecoder();

/** Where the digits of up to 32 KB are written, reused from call to call: no buffer a call. */
const scratch = new Uint8Array(64 * 1024);

/**
 * Bytes `start` to `end` (all of them by default) as lowercase hex, two digits a byte. The
 * digits are written into a buffer and decoded once: appending a string per byte builds a
 * rope of one small string per byte, which for the step response stored every turn (a few
 * hundred bytes) was 6 % of everything the backend allocated.
 */
export function hexOf(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const n = Math.max(0, end - start);
  const out = 2 * n <= scratch.length ? scratch : new Uint8Array(2 * n);
  for (let i = 0; i < n; i++) {
    const b = bytes[start + i] as number;
    out[2 * i] = digits[b >> 4] as number;
    out[2 * i + 1] = digits[b & 15] as number;
  }
  return ascii.decode(out.subarray(0, 2 * n));
}
