/**
 * Page text is untrusted: it reaches the model inside tool output. These helpers keep it on one
 * line, short, and free of secrets that URLs carry.
 */

/** Query and fragment parameters that carry OAuth codes, tokens or secrets. */
const secretParams =
  /^(code|state|access_token|id_token|refresh_token|token|auth|authorization|client_secret|session_state|oauth_token|oauth_verifier|sig|signature|password|pass|pwd|api_key|apikey|key|x-amz-signature|x-amz-credential|x-amz-security-token)$/i;

/**
 * Unicode format characters (category Cf): zero-width spaces and joiners, the soft hyphen, word
 * joiners and invisible operators, the byte-order mark, bidi marks, tag characters. They draw
 * nothing, so page text could hide one inside a marker (`<\u200b/page-data>` reads as a fence's
 * close to a model and to no regex) or spell words nobody sees (tag characters mirror ASCII).
 * The one kept is a zero-width joiner between two pictographs, with the first one's variation
 * selector or skin tone: it joins an emoji sequence (👩‍💻, 🏳️‍🌈) and cannot sit inside a marker.
 * Subdivision flags (🏴 plus tag characters) lose their tags and show as a black flag.
 */
const formatChars = /(\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?\u200D)(?=\p{Extended_Pictographic})|\p{Cf}/gu;

/** Text without its invisible format characters ({@link formatChars}); emoji sequences stay whole. */
export function stripFormatChars(text: string): string {
  return text.replace(formatChars, "$1");
}

/**
 * One-line, length-capped text: newlines and other control characters become spaces (so page
 * text cannot start a fake line of tool output), invisible format characters go, runs of
 * whitespace collapse, quotes are kept but the result is cut at `max` characters with an ellipsis.
 */
export function sanitizeText(text: string, max = 120): string {
  // Control characters, line and paragraph separators, and bidi overrides become spaces (they
  // separate what they stood between); the other format characters vanish.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point.
  const flat = stripFormatChars(text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, " "));
  const squeezed = flat.replace(/\s+/g, " ").trim();
  return squeezed.length > max ? `${squeezed.slice(0, max - 1)}…` : squeezed;
}

/** Text for inside double quotes in the snapshot: sanitised, with quotes escaped. */
export function quoted(text: string, max = 120): string {
  return `"${sanitizeText(text, max).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/**
 * A URL fit for the model: `javascript:`, `data:` and `blob:` collapse to their scheme, OAuth
 * codes, state and tokens are removed from the query and the fragment, and the result is one line.
 */
export function sanitizeUrl(raw: string, max = 200): string {
  const trimmed = sanitizeText(raw, 4096);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === "javascript" || scheme === "data" || scheme === "blob" || scheme === "vbscript") return `${scheme}:`;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return sanitizeText(trimmed, max);
  }
  if (url.username || url.password) {
    url.username = "";
    url.password = "";
  }
  for (const name of [...url.searchParams.keys()]) {
    if (secretParams.test(name)) url.searchParams.delete(name);
  }
  if (url.hash.includes("=")) {
    const frag = new URLSearchParams(url.hash.slice(1));
    for (const name of [...frag.keys()]) if (secretParams.test(name)) frag.delete(name);
    const rest = frag.toString();
    url.hash = rest ? `#${rest}` : "";
  }
  return sanitizeText(url.toString(), max);
}

/** A short origin + path label for a frame marker, such as "localhost:8081/widget". */
export function frameLabel(raw: string): string {
  const safe = sanitizeUrl(raw, 4096);
  try {
    const u = new URL(safe);
    return sanitizeText(`${u.host}${u.pathname === "/" ? "" : u.pathname}`, 80);
  } catch {
    return sanitizeText(safe, 80);
  }
}

/** The origin of a URL ("null" for opaque ones), or the text itself when it does not parse. */
export function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
