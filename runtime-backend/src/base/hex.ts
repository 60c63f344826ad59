const byteHex = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Bytes `start` to `end` (all of them by default) as lowercase hex, two digits a byte. */
export function hexOf(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let hex = "";
  for (let i = start; i < end; i++) hex += byteHex[bytes[i] as number];
  return hex;
}
