import { ExtractFormat, MouseButton, ScrollDirection, KeyModifier } from "@baton/gen/baton/v1/tools_pb";
import { delay } from "../../cdp/timeouts.js";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import type { EngineHandlers } from "../handlers.js";
import { sanitizeText, sanitizeUrl } from "../base/sanitize.js";
import { valueInputTypes } from "../actions/set-value.js";
import type { ValueTarget } from "../in-page/set-value.js";
import { canonicalValue, parseNumber, type ValueType, valueExamples } from "../actions/value-forms.js";
import type { DomEngine } from "./dom-engine.js";
import { openableUrl } from "../page/url-checks.js";

/** A tool the DOM fallback cannot perform: the debugger is needed for it. */
function needsDebugger(what: string): never {
  throw new ToolFailure(ToolErrorCode.UNKNOWN_TOOL, `${what} is not available on this page (the debugger cannot attach here). Continue without it or ask the user.`);
}

/** Waits until the document behind the agent changed from `token` (a navigation committed). */
async function waitNewDocument(engine: DomEngine, token: string, capMs: number): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started < capMs) {
    const p = await engine.runner.call<{ token: string }>("ping").catch(() => undefined);
    if (p && p.token !== token) return true;
    await delay(50);
  }
  return false;
}

/**
 * The DOM fallback as tool handlers: the same type and the same results as `engineHandlers`,
 * so a client can swap one for the other when the debugger cannot attach. Tools that need the
 * debugger (upload, screenshots, tabs) fail with UNKNOWN_TOOL and say why.
 */
export function domHandlers<Ctx = void>(engine: DomEngine): EngineHandlers<Ctx> {
  const g = <T>(fn: () => Promise<T>) => engine.guard(fn);
  return {
    navigate: (p) =>
      g(async () => {
        const url = openableUrl(p.url);
        const mark = await engine.mark();
        await engine.runner.call("navigate", url).catch(() => undefined);
        await waitNewDocument(engine, mark.token, 10_000);
        const evidence = await engine.evidence(mark);
        return { url: evidence.url ?? "", title: evidence.title ?? "", httpStatus: 0, evidence };
      }),
    goBack: () =>
      g(async () => {
        const mark = await engine.mark();
        const r = await engine.runner.call<{ ok: boolean }>("back").catch(() => ({ ok: true }));
        const moved = r.ok && (await waitNewDocument(engine, mark.token, 5000));
        const evidence = await engine.evidence(mark);
        return { url: evidence.url ?? "", title: evidence.title ?? "", moved: moved || !!evidence.navigated, evidence };
      }),
    takeSnapshot: (p) =>
      g(async () => {
        if (p.includeScreenshot) needsDebugger("A screenshot");
        if (p.ref) needsDebugger("A scoped snapshot");
        return engine.snapshot({ offset: p.offset, includeOffscreen: p.includeOffscreen, ...(p.maxChars !== undefined ? { maxChars: p.maxChars } : {}) });
      }),
    click: (p) =>
      g(async () => {
        if (!p.ref) needsDebugger("Clicking at coordinates");
        const el = await engine.resolve(p.ref, "ref");
        const at = await engine.actionPoint(el, "ref");
        const mark = await engine.mark();
        if (mark.token !== el.token) return engine.fail(ToolErrorCode.NAVIGATED, "The page navigated away before the click happened, so it was not performed.");
        const mods = new Set(p.modifiers);
        await engine.runner.call("click", {
          id: el.id,
          frame: at.frame,
          x: at.local.x,
          y: at.local.y,
          button: p.button === MouseButton.RIGHT ? 2 : p.button === MouseButton.MIDDLE ? 1 : 0,
          count: p.clickCount ?? 1,
          ctrl: mods.has(KeyModifier.CONTROL),
          shift: mods.has(KeyModifier.SHIFT),
          alt: mods.has(KeyModifier.ALT),
          meta: mods.has(KeyModifier.META),
        });
        return { evidence: await engine.evidence(mark) };
      }),
    typeText: (p) =>
      g(async () => {
        const el = await engine.resolve(p.ref, "ref");
        await engine.actionPoint(el, "ref");
        const mark = await engine.mark();
        const r = await engine.runner.call<{ value?: string; error?: string; gone?: boolean }>("type", {
          id: el.id,
          text: p.text,
          clear: p.clear ?? true,
          enter: p.pressEnter,
        });
        if (r.gone) return engine.fail(ToolErrorCode.STALE_REF, `Element ${el.ref} is gone from the page.`, "ref");
        if (r.error) return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.ref} cannot take text (${r.error}).`, "ref");
        return { value: r.value ?? "", suggestions: [], evidence: await engine.evidence(mark) };
      }),
    pressKeys: (p) =>
      g(async () => {
        const el = p.ref ? await engine.resolve(p.ref, "ref") : undefined;
        const mark = await engine.mark();
        await engine.runner.call("keys", { id: el?.id ?? 0, keys: p.keys });
        return { evidence: await engine.evidence(mark) };
      }),
    scroll: (p) =>
      g(async () => {
        const mark = await engine.mark();
        const dir = p.direction === ScrollDirection.UNSPECIFIED ? ScrollDirection.DOWN : p.direction;
        const target = p.ref ? await engine.resolve(p.ref, "ref") : undefined;
        const to = p.toRef ? await engine.resolve(p.toRef, "to_ref") : undefined;
        const r = await engine.runner.call<{ moved: boolean }>("scroll", {
          id: target?.id ?? 0,
          toId: to?.id ?? 0,
          vertical: dir === ScrollDirection.UP || dir === ScrollDirection.DOWN,
          sign: dir === ScrollDirection.UP || dir === ScrollDirection.LEFT ? -1 : 1,
          pixels: p.pixels ?? 0,
          toEdge: p.toEdge,
        });
        const evidence = await engine.evidence(mark);
        return { moved: r.moved, viewport: engine.lastSnapshot?.viewport, evidence };
      }),
    selectOption: (p) =>
      g(async () => {
        const el = await engine.resolve(p.ref, "ref");
        const mark = await engine.mark();
        const r = await engine.runner.call<{ selected?: string[]; error?: string; available?: string[] }>("select", { id: el.id, values: p.values });
        if (r.error === "not-select") return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.ref} is not a native select. Click it, then click the option.`, "ref");
        if (r.error === "disabled") return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Select ${el.ref} is disabled.`, "ref");
        if (r.error === "single") return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, "This select takes one option.", "values");
        if (r.error === "missing") {
          const avail = (r.available ?? []).map((s) => JSON.stringify(sanitizeText(s, 60))).join(", ");
          return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `No option matches. Options are: ${avail}.`, "values");
        }
        return { selected: (r.selected ?? []).map((s) => sanitizeText(s, 200)), evidence: await engine.evidence(mark) };
      }),
    hover: (p) =>
      g(async () => {
        const el = await engine.resolve(p.ref, "ref");
        const at = await engine.actionPoint(el, "ref");
        const mark = await engine.mark();
        await engine.runner.call("hover", { id: el.id, frame: at.frame, x: at.local.x, y: at.local.y });
        return { evidence: await engine.evidence(mark) };
      }),
    drag: (p) =>
      g(async () => {
        const from = await engine.resolve(p.fromRef, "from_ref");
        const to = await engine.resolve(p.toRef, "to_ref");
        const a = await engine.actionPoint(from, "from_ref");
        const b = await engine.actionPoint(to, "to_ref");
        const mark = await engine.mark();
        await engine.runner.call("drag", { from: from.id, to: to.id, fx: a.local.x, fy: a.local.y, tx: b.local.x, ty: b.local.y });
        return { evidence: await engine.evidence(mark) };
      }),
    uploadFile: () => g(async () => needsDebugger("Uploading files")),
    waitFor: (p) =>
      g(async () => {
        const conditions = [p.text, p.textGone, p.ref, p.url, p.ms].filter((c) => c !== undefined && c !== "");
        if (conditions.length !== 1) throw new ToolFailure(ToolErrorCode.INVALID_ARGUMENTS, "Give exactly one of text, text_gone, ref, url or ms.");
        const cap = p.timeoutMs ?? 10_000;
        const started = Date.now();
        const mark = await engine.mark();
        let satisfied = false;
        if (p.ms !== undefined) {
          await delay(Math.min(p.ms, cap));
          satisfied = true;
        } else {
          while (Date.now() - started < cap) {
            let ok: boolean;
            if (p.url) ok = (await engine.runner.url()).includes(p.url);
            else if (p.ref) ok = await engine.resolve(p.ref, "ref").then(() => true, (e: unknown) => {
              if (e instanceof ToolFailure && e.code === ToolErrorCode.UNKNOWN_REF) throw e;
              return false;
            });
            else {
              const text = (await engine.runner.call<string>("text").catch(() => "")).toLowerCase();
              ok = p.text ? text.includes(p.text.toLowerCase()) : !text.includes(p.textGone.toLowerCase());
            }
            if (ok) {
              satisfied = true;
              break;
            }
            await delay(100);
          }
        }
        return { satisfied, waitedMs: Date.now() - started, evidence: await engine.evidence(mark) };
      }),
    screenshot: () => g(async () => needsDebugger("A screenshot")),
    extract: (p) =>
      g(async () => {
        const format = p.format === ExtractFormat.TEXT ? "text" : p.format === ExtractFormat.LINKS ? "links" : "markdown";
        const el = p.ref ? await engine.resolve(p.ref, "ref") : undefined;
        const r = await engine.runner.call<{ content: string; links: { text: string; url: string }[] }>("extract", { id: el?.id ?? 0, format });
        const content = r.content.replace(/\]\(([^)\s]+)\)/g, (_, u: string) => `](${sanitizeUrl(u)})`);
        const max = p.maxChars ?? 20_000;
        const offset = p.offset ?? 0;
        const ping = await engine.runner.call<{ url: string; title: string }>("ping");
        return {
          url: sanitizeUrl(ping.url),
          title: sanitizeText(ping.title, 200),
          content: content.slice(offset, offset + max),
          ...(offset + max < content.length ? { nextOffset: offset + max } : {}),
          links: format === "text" ? [] : r.links.slice(0, 200).map((l) => ({ text: sanitizeText(l.text, 120), url: sanitizeUrl(l.url), ref: "" })),
        };
      }),
    setValue: (p) =>
      g(async () => {
        const el = await engine.resolve(p.ref, "ref");
        const target = await engine.runner.call<ValueTarget | { gone: true }>("valueTarget", { id: el.id });
        if ("gone" in target) return engine.fail(ToolErrorCode.STALE_REF, `Element ${el.ref} is gone from the page.`, "ref");
        if (target.kind !== "input" || !valueInputTypes.has(target.type)) {
          return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.ref} is not a date, time, colour, range or number field; sliders without one need the debugger.`, "ref");
        }
        if (target.disabled || target.readOnly) return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.ref} is ${target.disabled ? "disabled" : "read-only"}.`, "ref");
        const type = target.type as ValueType;
        const n = parseNumber(p.value);
        const percent = type === "range" && n && "percent" in n ? n.percent : null;
        const canonical = percent !== null ? "" : (canonicalValue(type, p.value) ?? (type === "color" ? p.value.trim() : undefined));
        if (canonical === undefined) return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `${JSON.stringify(sanitizeText(p.value, 60))} is not a ${type} value. Give it like ${valueExamples[type]}.`, "value");
        await engine.actionPoint(el, "ref");
        const mark = await engine.mark();
        const r = await engine.runner.call<{ value: string; error?: string; min: string; max: string; step: string }>("setInput", { id: el.id, value: canonical, percent });
        if (r.error) return engine.fail(ToolErrorCode.INVALID_ARGUMENTS, `${JSON.stringify(sanitizeText(p.value, 60))} is not a colour.`, "value");
        const evidence = await engine.evidence(mark);
        if (percent === null && type !== "color" && r.value !== canonical) {
          return engine.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.ref} holds ${JSON.stringify(sanitizeText(r.value, 60))} after setting ${JSON.stringify(canonical)}.`, "value");
        }
        return { value: r.value, evidence };
      }),
    selectText: (p) =>
      g(async () => {
        const el = p.ref ? await engine.resolve(p.ref, "ref") : undefined;
        const mark = await engine.mark();
        const r = await engine.runner.call<{ selected: string; matches: number }>("selectText", { id: el?.id ?? 0, text: p.text, occurrence: p.occurrence ?? 1 });
        if (!r.selected) return engine.fail(ToolErrorCode.NOT_FOUND, `${JSON.stringify(sanitizeText(p.text, 80))} is not in ${el ? `the text of ${el.ref}` : "the page's text"}${r.matches ? ` ${p.occurrence ?? 1} time(s)` : ""}.`, "text");
        return { selected: sanitizeText(r.selected, 10_000), evidence: await engine.evidence(mark) };
      }),
    openTab: () => g(async () => needsDebugger("Opening tabs")),
    switchTab: () => g(async () => needsDebugger("Switching tabs")),
    closeTab: () => g(async () => needsDebugger("Closing tabs")),
    listTabs: () => g(async () => needsDebugger("Listing tabs")),
  };
}
