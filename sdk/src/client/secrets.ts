import { ToolErrorCode } from "@baton/gen/baton/v1/agent_pb";
import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { type MaskScope, type ScreenMask, ToolFailure, type TypingScope } from "../contract/index.js";
import { parseTotpSeed } from "./totp-seed.js";

/**
 * A value the model may have typed but never sees: it writes the placeholder
 * `<secret>name</secret>` as the text of `type_text`, and the client types the value.
 */
export interface Secret {
  /** The name the model writes: a letter, then up to 63 letters, digits, `_`, `.` or `-`. */
  readonly name: string;
  /** The value typed in its place; for a `totp` secret, its seed. Never sent to the backend. */
  readonly value: string;
  /**
   * "totp": the value is a TOTP seed (a Base32 key or an `otpauth://totp/…` link, see
   * `parseTotpSeed`) and what is typed is its current one-time code, masked like a value.
   * Absent: the value is typed as it is.
   */
  readonly kind?: "totp";
  /**
   * For a `totp` secret, its code at a time (milliseconds; now by default): `totpSecret` from
   * `@baton/sdk/totp` makes such a secret.
   */
  readonly code?: (at?: number) => string;
  /**
   * Origins it may be typed on, such as "https://app.example.com"; "*" for any. Absent: any
   * origin (prefer to scope it).
   */
  readonly origins?: readonly string[];
}

/** How the secrets layer reads the page it types on (an engine's `engineProbe` fits). */
export interface SecretPage {
  /** The current page's URL, for the origin check. */
  url(): Promise<string>;
  /** The page's visible text: a screenshot of a page that shows a secret is withheld. */
  text?(): Promise<string>;
}

/** The placeholder the model writes for a secret. */
export function placeholder(name: string): string {
  return `<secret>${name}</secret>`;
}

const nameRe = /^[A-Za-z][\w.-]{0,63}$/;

/** Checks secrets before a run: names, values, origins. Throws an Error saying what is wrong. */
export function checkSecrets(secrets: readonly Secret[], page: SecretPage | undefined): void {
  const seen = new Set<string>();
  for (const s of secrets) {
    if (!nameRe.test(s.name)) throw new Error(`secret name ${JSON.stringify(s.name)}: use a letter, then letters, digits, "_", "." or "-" (at most 64)`);
    if (seen.has(s.name)) throw new Error(`secret "${s.name}" is given twice`);
    seen.add(s.name);
    if (!s.value) throw new Error(`secret "${s.name}" is empty`);
    if (s.kind === "totp") {
      try {
        parseTotpSeed(s.value);
      } catch (e) {
        throw new Error(`secret "${s.name}": ${e instanceof Error ? e.message : String(e)}`);
      }
      if (!s.code) throw new Error(`secret "${s.name}" is a one-time code without its code generator: make it with totpSecret() from @baton/sdk/totp`);
    }
    for (const o of s.origins ?? []) {
      if (o !== "*" && originOf(o) === undefined) throw new Error(`secret "${s.name}": origin ${JSON.stringify(o)} is not a URL such as https://app.example.com`);
    }
    if (s.origins?.some((o) => o !== "*") && !page) throw new Error(`secret "${s.name}" is scoped to origins: give the page (its url()) so each typing can be checked`);
  }
}

function originOf(url: string): string | undefined {
  try {
    const o = new URL(url).origin;
    return o === "null" ? undefined : o;
  } catch {
    return undefined;
  }
}

/** The paragraph that tells the model which secrets it can type (names and origins only). */
export function secretsNote(secrets: readonly Secret[]): string {
  if (secrets.length === 0) return "";
  const lines = secrets.map((s) => {
    const where = s.origins?.length && !s.origins.includes("*") ? ` (only on ${s.origins.map((o) => originOf(o)).join(", ")})` : "";
    return `- ${placeholder(s.name)}${s.kind === "totp" ? " (a one-time code: the current code is typed each time)" : ""}${where}`;
  });
  return [
    "The user gave secrets you can type without seeing them. To type one, write its placeholder exactly as the text of type_text (alone or inside other text); the browser types the value. Tool results show each value as its placeholder. Never ask the user for a value, and never type a placeholder anywhere else than the field it belongs to.",
    ...lines,
  ].join("\n");
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * What may stand between two characters of an echoed value: whitespace (the snapshot squeezes
 * it; a page spells a value out "c o r r e c t"), invisible format characters, and the
 * punctuation pages space characters with.
 */
const gap = "[\\s\\u00ad\\u200b-\\u200f\\u2060-\\u2064\\ufeff.\\-_·•|*]*";

/**
 * One pattern for every form a value takes in page text: as typed, with its whitespace
 * squeezed, as the snapshot quotes it (`\"`, `\\`), spelled out with spaces or dots between
 * its characters, and in any letter case (CSS `text-transform`, including case maps that change
 * a length, such as ß → SS).
 */
function valuePattern(value: string): RegExp | undefined {
  const char = (c: string) => (c === '"' ? '\\\\?"' : c === "\\" ? "\\\\{1,2}" : escapeRe(c));
  const spelled = (v: string) => [...v.replace(/\s+/g, "")].map(char).join(gap);
  const forms = [...new Set([value, value.toUpperCase(), value.toLowerCase()])].filter((v) => v.trim() !== "").map(spelled);
  return forms.length ? new RegExp(forms.sort((a, b) => b.length - a.length).join("|"), "giu") : undefined;
}

const patterns = new WeakMap<Secret, RegExp | undefined>();

function patternOf(s: Secret): RegExp | undefined {
  if (!patterns.has(s)) patterns.set(s, valuePattern(s.value));
  return patterns.get(s);
}

/** The value as it reads in page text, whitespace squeezed and quoted: what the engine cuts short. */
function squeezedForms(value: string): string[] {
  const squeezed = value.replace(/\s+/g, " ").trim();
  const quoted = squeezed.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
  return [...new Set([squeezed, quoted])];
}

/** Replaces each value in a text read as it is (no decoding). */
function maskPlain(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const s of secrets) {
    const re = patternOf(s);
    if (re) out = out.replace(re, placeholder(s.name));
    if (!out.includes("…")) continue;
    for (const v of squeezedForms(s.value)) {
      if (v.length <= 8) continue;
      // A long value the engine cut: its first characters and an ellipsis.
      const cut = new RegExp(`${escapeRe(v.slice(0, 8))}[^…]{0,${v.length - 8}}…`, "giu");
      out = out.replace(cut, (m) => (v.toLowerCase().startsWith(m.slice(0, -1).toLowerCase()) ? `${placeholder(s.name)}…` : m));
    }
  }
  return out;
}

/** Percent-decoding that keeps what is not a valid escape as it is. */
function percentDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/**
 * A piece of a URL: a path segment, a query or fragment parameter's name or value. A value
 * percent-encodes the characters that delimit them, so each encoded value is one piece.
 */
const urlPiece = /[^\s/?#&;=<>"']+/g;

/**
 * Replaces every secret value in a text by its placeholder: as typed; with its whitespace
 * squeezed; as the snapshot quotes it; spelled out one character at a time; in any letter case;
 * cut short by the engine's length cap (a prefix of at least 8 characters and "…"); and in
 * URLs, percent-encoded or form-encoded (`+` for a space), which is decoded before comparing
 * (a GET form puts what was typed into the query).
 */
export function maskText(text: string, secrets: readonly Secret[]): string {
  if (secrets.length === 0) return text;
  const out = maskPlain(text, secrets);
  if (!/%[0-9a-f]{2}|\+/i.test(out)) return out;
  return out.replace(urlPiece, (piece) => {
    if (!/%[0-9a-f]{2}|\+/i.test(piece)) return piece;
    for (const decoded of new Set([percentDecode(piece.replace(/\+/g, " ")), percentDecode(piece)])) {
      const masked = maskPlain(decoded, secrets);
      if (masked !== decoded) return masked;
    }
    return piece;
  });
}

/** True when the text holds a secret value in any form {@link maskText} replaces. */
function showsSecret(text: string, secrets: readonly Secret[]): boolean {
  return maskText(text, secrets) !== text;
}

/** A deep copy of a handler's result (or a failure's snapshot) with every string masked. */
export function maskDeep<T>(value: T, secrets: readonly Secret[]): T {
  if (typeof value === "string") return maskText(value, secrets) as T;
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, secrets)) as T;
  const out = Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) out[k] = maskDeep(v, secrets);
  return out as T;
}

const withheldUrl = "withheld: a secret may be visible on this page; read it with take_snapshot instead";

/** Where screenshots stand: withheld after a secret was typed, until the page changes. */
interface Exposure {
  /** The page (without its fragment) a secret was typed on. */
  typedOn: string | undefined;
}

function pageKey(url: string): string {
  return url.replace(/#.*$/, "");
}

/** The URLs a result reports (its own and its evidence's), for noticing that the page changed. */
function urlsOf(result: unknown): string[] {
  const r = result as { url?: unknown; evidence?: { url?: unknown; navigated?: unknown }; tab?: { evidence?: { url?: unknown } } } | undefined;
  return [r?.url, r?.evidence?.url, r?.tab?.evidence?.url].filter((u): u is string => typeof u === "string" && u.length > 0);
}

/**
 * The engine's handlers behind a secrets layer: `type_text` types `<secret>name</secret>` as the
 * secret's value, or a TOTP secret's current code (only on its origins: elsewhere the call fails with PERMISSION_DENIED, and an
 * unknown name with INVALID_ARGUMENTS). The page's origin is checked here; the origins also go
 * to the handler on its context (`TypingScope.typeOnlyOn`), where the engine checks the field's
 * own frame when it finds it and again just before the keys go out. Every handler's result and
 * failure is masked — each value reads back as its placeholder in snapshots, evidence,
 * extracted text and error messages, even where the page echoed it. Screenshots go to the
 * handler with a `ScreenMask` on the context (`MaskScope`): the engine paints over every field
 * and text that shows a secret before the image is encoded, and confirms it. A screenshot no
 * one confirmed is withheld while a typed secret may be on screen (from the typing until the
 * page changes) or while the page's text shows one (when `page.text` is given). The values
 * never leave this layer.
 */
export function withSecrets<Ctx>(handlers: ClientToolHandlers<Ctx>, secrets: readonly Secret[], page?: SecretPage): ClientToolHandlers<Ctx> {
  checkSecrets(secrets, page);
  if (secrets.length === 0) return handlers;
  const byName = new Map(secrets.map((s) => [s.name, s]));
  const exposure: Exposure = { typedOn: undefined };
  // What is masked: every value (a TOTP secret's seed too), and each one-time code typed, which
  // a field or the page may show afterwards. The latest few codes are kept: older ones expired.
  let masking: readonly Secret[] = secrets;
  const codes: Secret[] = [];
  const typedCode = (s: Secret): string => {
    const code = (s.code as (at?: number) => string)();
    if (!codes.some((c) => c.value === code)) {
      codes.push({ name: s.name, value: code });
      if (codes.length > 16) codes.shift();
      masking = [...secrets, ...codes];
    }
    return code;
  };

  /**
   * The text with its placeholders replaced, the page it is typed on (when known), and the
   * origins the field's own frame must be on (every scoped secret's, intersected).
   */
  async function substitute(text: string): Promise<{ text: string; used: boolean; on?: string; onlyOn?: string[] }> {
    const names = [...text.matchAll(/<secret>\s*([^<]*?)\s*<\/secret>/g)].map((m) => m[1] ?? "");
    if (names.length === 0) return { text, used: false };
    let url: string | undefined;
    let onlyOn: string[] | undefined;
    for (const name of names) {
      const s = byName.get(name);
      if (!s) {
        throw new ToolFailure(ToolErrorCode.INVALID_ARGUMENTS, `There is no secret named ${JSON.stringify(name.slice(0, 64))}. The secrets you can type are: ${[...byName.keys()].map(placeholder).join(", ")}.`, { field: "text" });
      }
      const allowed = (s.origins ?? []).filter((o) => o !== "*").map(originOf);
      if (allowed.length > 0 && !(s.origins ?? []).includes("*")) {
        url ??= await (page as SecretPage).url();
        const here = originOf(url);
        if (!here || !allowed.includes(here)) {
          throw new ToolFailure(ToolErrorCode.PERMISSION_DENIED, `${placeholder(name)} may only be typed on ${allowed.join(", ")}; this page is on ${here ?? "no web origin"}. Do not type it here.`, { field: "text" });
        }
        const ok = allowed.filter((o): o is string => o !== undefined);
        onlyOn = onlyOn ? onlyOn.filter((o) => ok.includes(o)) : ok;
      }
    }
    const out = text.replace(/<secret>\s*([^<]*?)\s*<\/secret>/g, (_m, name: string) => {
      const s = byName.get(name) as Secret;
      return s.kind === "totp" ? typedCode(s) : s.value;
    });
    url ??= page ? await page.url().catch(() => undefined) : undefined;
    return { text: out, used: true, ...(url ? { on: pageKey(url) } : {}), ...(onlyOn ? { onlyOn } : {}) };
  }

  /** Drops a screenshot's data when a secret may be visible in it. */
  async function guardImage<I extends { data?: Uint8Array; url?: string } | undefined>(img: I, pageText: string | undefined): Promise<I> {
    if (!img || !img.data?.length) return img;
    let visible = exposure.typedOn !== undefined || (pageText !== undefined && showsSecret(pageText, masking));
    if (!visible && page?.text) visible = showsSecret(await page.text().catch(() => ""), masking);
    return visible ? ({ ...img, data: new Uint8Array(), url: withheldUrl } as I) : img;
  }

  function noticeNavigation(result: unknown): void {
    if (exposure.typedOn === undefined) return;
    const moved = (result as { evidence?: { navigated?: boolean } } | undefined)?.evidence?.navigated === true;
    if (moved || urlsOf(result).some((u) => pageKey(u) !== exposure.typedOn)) exposure.typedOn = undefined;
  }

  const wrapped: Record<string, unknown> = {};
  for (const [key, handler] of Object.entries(handlers) as [string, (p: unknown, ctx: Ctx) => Promise<unknown>][]) {
    wrapped[key] = async (params: unknown, ctx: Ctx) => {
      let p = params;
      let c = ctx;
      let typed: { on?: string } | undefined;
      if (key === "typeText") {
        const sub = await substitute((params as { text: string }).text);
        if (sub.used) {
          p = { ...(params as object), text: sub.text };
          // The page's origin is checked above; the field's own frame is checked by the engine,
          // when it finds the field and again just before the keys go out.
          if (sub.onlyOn) c = { ...(ctx as object), typeOnlyOn: sub.onlyOn } satisfies TypingScope as Ctx;
          typed = sub;
          // Withheld from the moment of typing: even a failed typing may have put it on screen.
          exposure.typedOn = sub.on ?? "(the page typed on)";
        }
      }
      // Screenshots: the engine paints every secret it can locate over before encoding, and says so.
      let painted = false;
      if (key === "takeSnapshot" || key === "screenshot") {
        const screenMask: ScreenMask = { shows: (t) => showsSecret(t, masking), painted: () => void (painted = true) };
        c = { ...(c as object), screenMask } satisfies MaskScope as Ctx;
      }
      let result: unknown;
      try {
        result = await handler(p, c);
      } catch (e) {
        if (e instanceof ToolFailure) {
          const snapshot = e.details.snapshot ? maskDeep({ ...e.details.snapshot, screenshot: undefined }, masking) : undefined;
          throw new ToolFailure(e.code, maskText(e.message, masking), { ...e.details, ...(snapshot ? { snapshot } : {}) });
        }
        throw new Error(maskText(e instanceof Error ? e.message : String(e), masking));
      }
      if (typed) exposure.typedOn = typed.on ?? urlsOf(result).map(pageKey)[0] ?? exposure.typedOn;
      else noticeNavigation(result);
      const r = result as { text?: string; screenshot?: { data?: Uint8Array; url?: string }; image?: { data?: Uint8Array; url?: string } } | undefined;
      // A screenshot the engine painted over goes out; one it did not (a handler of another kind) is withheld while a secret may show.
      if (key === "takeSnapshot" && r?.screenshot && !painted) result = { ...r, screenshot: await guardImage(r.screenshot, r.text) };
      if (key === "screenshot" && r?.image && !painted) result = { ...r, image: await guardImage(r.image, undefined) };
      return maskDeep(result, masking);
    };
  }
  return wrapped as unknown as ClientToolHandlers<Ctx>;
}
