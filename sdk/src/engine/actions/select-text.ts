import type { SelectTextParams } from "@baton/gen/baton/v1/tools_pb";
import { ToolErrorCode } from "../../contract/index.js";
import { invocation } from "../base/page-function.js";
import { quoted, sanitizeText } from "../base/sanitize.js";
import type { EngineParts } from "../parts.js";
import { selectTextInPage } from "../in-page/select-text.js";

/** select_text: selects a piece of text in an element (or the page) and reads the selection back. */
export async function selectText(engine: EngineParts, params: SelectTextParams) {
  return engine.state.guard(async () => {
    const occurrence = params.occurrence ?? 1;
    const el = params.ref ? await engine.targeting.resolve(params.ref, "ref") : undefined;
    if (el) await engine.targeting.aim(el, "ref");
    const mark = engine.evidence.mark();
    let r: { selected: string; matches: number };
    if (el) {
      r = await engine.targeting.call(el, selectTextInPage, [params.text, occurrence]);
    } else {
      const res = await engine.state.page.send<{ result: { value?: typeof r } }>("Runtime.evaluate", { expression: invocation(selectTextInPage, params.text, occurrence), returnByValue: true });
      r = res.result.value ?? { selected: "", matches: 0 };
    }
    if (!r.selected) {
      const where = el ? `the text of ${el.entry.ref}` : "the page's text";
      const message =
        r.matches > 0
          ? `${quoted(params.text, 80)} appears ${r.matches} time(s) in ${where}; there is no occurrence ${occurrence}.`
          : `${quoted(params.text, 80)} is not in ${where}. Copy it exactly from the snapshot, or give the ref of the element that shows it.`;
      return engine.state.fail(ToolErrorCode.NOT_FOUND, message, "text");
    }
    return { selected: sanitizeText(r.selected, 10_000), evidence: await engine.evidence.after(mark) };
  });
}
