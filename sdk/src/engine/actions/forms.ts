import type { ScrollParams, SelectOptionParams, UploadFileParams } from "@baton/gen/baton/v1/tools_pb";
import { ScrollDirection } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import type { EngineParts } from "../parts.js";
import { viewportOf } from "../page-state.js";
import { invocation } from "../base/page-function.js";
import { sanitizeText } from "../base/sanitize.js";
import { noFileMessage } from "../../policy/index.js";

/** select_option: picks options of a native select by label or value, firing input and change. */
export async function selectOption(engine: EngineParts, params: SelectOptionParams) {
  return engine.state.guard(async () => {
    const el = await engine.targeting.resolve(params.ref, "ref");
    const mark = engine.evidence.mark();
    const r = await engine.targeting.call(el, selectInPage, [params.values]);
    if (r.error === "not-select") {
      return engine.state.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.entry.ref} is not a native select. Click it, then click the option.`, "ref");
    }
    if (r.error === "disabled") return engine.state.fail(ToolErrorCode.NOT_ACTIONABLE, `Select ${el.entry.ref} is disabled.`, "ref");
    if (r.error === "single") return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, "This select takes one option.", "values");
    if (r.error === "missing") {
      const avail = (r.available ?? []).map((s) => JSON.stringify(sanitizeText(s, 60))).join(", ");
      return engine.state.fail(ToolErrorCode.INVALID_ARGUMENTS, `No option matches. Options are: ${avail}.`, "values");
    }
    return { selected: (r.selected ?? []).map((s) => sanitizeText(s, 200)), evidence: await engine.evidence.after(mark) };
  });
}

/** upload_file: puts files into a file input (`DOM.setFileInputFiles`), after checking they exist. */
export async function uploadFile(engine: EngineParts, params: UploadFileParams) {
  return engine.state.guard(async () => {
    const el = await engine.targeting.resolve(params.ref, "ref");
    const isFile = await engine.targeting.call(el, isFileInput);
    if (!isFile) return engine.state.fail(ToolErrorCode.NOT_ACTIONABLE, `Element ${el.entry.ref} is not a file input.`, "ref");
    const exists = engine.state.options.fileExists;
    if (exists) {
      for (const path of params.paths) {
        if (!(await exists(path))) {
          throw new ToolFailure(ToolErrorCode.NOT_FOUND, noFileMessage(sanitizeText(path, 300)), { field: "paths" });
        }
      }
    }
    const mark = engine.evidence.mark();
    await engine.state.page.send("DOM.setFileInputFiles", { files: params.paths, backendNodeId: el.entry.backendNodeId }, el.entry.sessionId);
    const files = await engine.targeting.call(el, fileNames);
    return { files, evidence: await engine.evidence.after(mark) };
  });
}

/** scroll: the page, an element, or until an element is in view. */
export async function scroll(engine: EngineParts, params: ScrollParams) {
  return engine.state.guard(async () => {
    const mark = engine.evidence.mark();
    if (params.toRef) {
      const el = await engine.targeting.resolve(params.toRef, "to_ref");
      const before = await engine.targeting.call(el, topLeft);
      await engine.state.page.send("DOM.scrollIntoViewIfNeeded", { backendNodeId: el.entry.backendNodeId }, el.entry.sessionId);
      const after = await engine.targeting.call(el, topLeft);
      const moved = before[0] !== after[0] || before[1] !== after[1];
      const evidence = await engine.evidence.after(mark);
      return { moved, viewport: engine.state.lastSnapshot ? viewportOf(engine.state.lastSnapshot) : undefined, evidence };
    }
    const dir = params.direction === ScrollDirection.UNSPECIFIED ? ScrollDirection.DOWN : params.direction;
    const vertical = dir === ScrollDirection.UP || dir === ScrollDirection.DOWN;
    const sign = dir === ScrollDirection.UP || dir === ScrollDirection.LEFT ? -1 : 1;

    const args: Parameters<typeof scrollInPage> = [vertical, sign, params.pixels ?? 0, params.toEdge];
    let moved: boolean;
    if (params.ref) {
      const el = await engine.targeting.resolve(params.ref, "ref");
      moved = await engine.targeting.call(el, scrollInPage, args);
    } else {
      const r = await engine.state.page.send<{ result: { value?: boolean } }>("Runtime.evaluate", {
        expression: invocation(scrollInPage, ...args),
        returnByValue: true,
      });
      moved = r.result.value === true;
    }
    const evidence = await engine.evidence.after(mark);
    return { moved, viewport: engine.state.lastSnapshot ? viewportOf(engine.state.lastSnapshot) : undefined, evidence };
  });
}

/**
 * Selects the options of a native select (`this`) matching `wanted` by label or value (exactly,
 * then ignoring case and spacing), firing input and change.
 */
function selectInPage(this: HTMLSelectElement, wanted: readonly string[]): { error?: string; selected?: string[]; available?: string[] } {
  if (this.localName !== "select") return { error: "not-select" };
  if (this.disabled) return { error: "disabled" };
  const opts = [...this.options];
  const norm = (s: string): string => s.replace(/\s+/g, " ").trim().toLowerCase();
  const pick: HTMLOptionElement[] = [];
  for (const w of wanted) {
    const o = opts.find((o) => o.label === w || o.value === w) ?? opts.find((o) => norm(o.label) === norm(w) || norm(o.value) === norm(w));
    if (!o) return { error: "missing", available: opts.map((o) => o.label).slice(0, 50) };
    pick.push(o);
  }
  if (!this.multiple && pick.length > 1) return { error: "single" };
  for (const o of opts) o.selected = pick.includes(o);
  this.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  this.dispatchEvent(new Event("change", { bubbles: true }));
  return { selected: [...this.selectedOptions].map((o) => o.label) };
}

/** Whether the element (`this`) is a file input. */
function isFileInput(this: Element): boolean {
  return this.localName === "input" && (this as HTMLInputElement).type === "file";
}

/** The names of a file input's (`this`) files. */
function fileNames(this: HTMLInputElement): string[] {
  return [...(this.files ?? [])].map((f) => f.name);
}

/** The element's (`this`) top-left corner in the viewport. */
function topLeft(this: Element): [number, number] {
  const r = this.getBoundingClientRect();
  return [r.x, r.y];
}

/**
 * Scrolls the element (`this`), or the document when called on the document, by `pixels` (or
 * 80% of its size) or to its edge; whether it moved.
 */
function scrollInPage(this: unknown, vertical: boolean, sign: number, pixels: number, toEdge: boolean): boolean {
  const el = (this as Node | undefined)?.nodeType === 1 ? (this as Element) : (document.scrollingElement ?? document.documentElement);
  const before = [el.scrollLeft, el.scrollTop];
  const amount = pixels || Math.round((vertical ? el.clientHeight || innerHeight : el.clientWidth || innerWidth) * 0.8);
  const d = toEdge ? 1e9 * sign : amount * sign;
  el.scrollBy({ left: vertical ? 0 : d, top: vertical ? d : 0, behavior: "instant" });
  return before[0] !== el.scrollLeft || before[1] !== el.scrollTop;
}
