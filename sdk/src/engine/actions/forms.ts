import type { ScrollParams, SelectOptionParams, UploadFileParams } from "@baton/gen/baton/v1/tools_pb";
import { ScrollDirection } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import type { EngineParts } from "../parts.js";
import { viewportOf } from "../page-state.js";
import { invocation } from "../base/page-function.js";
import { sanitizeText } from "../base/sanitize.js";
import { noFileMessage } from "../../policy/index.js";
import { fileNames, isFileInput, scrollInPage, selectInPage, topLeft } from "../in-page/forms.js";

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
