import type { GoBackParams, NavigateParams, WaitForParams } from "@baton/gen/baton/v1/tools_pb";
import { delay } from "../../cdp/timeouts.js";
import { invocation } from "../base/page-function.js";
import { documentText } from "../in-page/page-content.js";
import { ToolErrorCode, ToolFailure } from "../../contract/index.js";
import type { EngineParts } from "../parts.js";
import { sanitizeText, sanitizeUrl } from "../base/sanitize.js";
import { waitUntil } from "../page/settle.js";
import { openableUrl } from "../page/url-checks.js";

/** navigate: opens a URL in the current tab and waits for it to load (capped). */
export async function navigate(engine: Pick<EngineParts, "state" | "evidence">, params: NavigateParams) {
  return engine.state.guard(async () => {
    const url = openableUrl(params.url, engine.state.options.urlPolicy);
    const mark = engine.evidence.mark();
    const page = engine.state.page;
    const r = await page.send<{ errorText?: string; loaderId?: string }>("Page.navigate", { url }, page.rootId, 30_000);
    if (r.errorText) {
      throw new ToolFailure(ToolErrorCode.NOT_FOUND, `Could not open ${sanitizeUrl(url)}: ${sanitizeText(r.errorText, 200)}.`, { field: "url" });
    }
    if (r.loaderId) await waitUntil(page, () => page.loadsStarted > mark.loadsStarted || page.gone !== undefined, 2000);
    const evidence = await engine.evidence.after(mark);
    return { url: evidence.url ?? "", title: evidence.title ?? "", httpStatus: page.lastDocumentStatus, evidence };
  });
}

/** go_back: one step back in the tab's history; `moved` is false when there is none. */
export async function goBack(engine: Pick<EngineParts, "state" | "evidence">, _params: GoBackParams) {
  return engine.state.guard(async () => {
    const page = engine.state.page;
    const mark = engine.evidence.mark();
    const h = await page.send<{ currentIndex: number; entries: { id: number }[] }>("Page.getNavigationHistory");
    const prev = h.entries[h.currentIndex - 1];
    if (!prev) {
      const evidence = await engine.evidence.after(mark);
      return { url: evidence.url ?? "", title: evidence.title ?? "", moved: false, evidence };
    }
    await page.send("Page.navigateToHistoryEntry", { entryId: prev.id });
    await waitUntil(page, () => page.navigationCount > mark.navigationCount, 5000);
    const evidence = await engine.evidence.after(mark);
    return { url: evidence.url ?? "", title: evidence.title ?? "", moved: true, evidence };
  });
}

/** Visible text of every frame the page has, for text waits; with `generated`, CSS `content` text too. */
async function pageText(engine: Pick<EngineParts, "state">, generated = false): Promise<string> {
  const page = engine.state.page;
  const texts = await Promise.all(
    [...page.sessions.keys()].map((sid) =>
      page
        .send<{ result: { value?: string } }>(
          "Runtime.evaluate",
          {
            expression: invocation(documentText, generated),
            returnByValue: true,
          },
          sid,
          2000,
        )
        .then((r) => r.result.value ?? "")
        .catch(() => ""),
    ),
  );
  return texts.join("\n");
}

/** wait_for: text, text gone, a ref present, a URL, or a fixed time; always capped. */
export async function waitFor(engine: EngineParts, params: WaitForParams) {
  return engine.state.guard(async () => {
    const conditions = [params.text, params.textGone, params.ref, params.url, params.ms].filter((c) => c !== undefined && c !== "");
    if (conditions.length !== 1) {
      throw new ToolFailure(ToolErrorCode.INVALID_ARGUMENTS, "Give exactly one of text, text_gone, ref, url or ms.");
    }
    const cap = params.timeoutMs ?? 10_000;
    const started = Date.now();
    const mark = engine.evidence.mark();
    let satisfied = false;
    if (params.ms !== undefined) {
      // The model asked for a fixed wait; it is the only sleep the engine takes.
      await delay(Math.min(params.ms, cap));
      satisfied = true;
    } else {
      const check = async (): Promise<boolean> => {
        if (params.url) return (engine.state.page.mainFrame()?.url ?? "").includes(params.url);
        if (params.ref) {
          const entry = engine.state.refs.get(params.ref);
          if (!entry) throw new ToolFailure(ToolErrorCode.UNKNOWN_REF, `There is no element ${JSON.stringify(params.ref)} in the snapshot.`, { field: "ref" });
          return engine.targeting.resolve(params.ref, "ref").then(
            () => true,
            () => false,
          );
        }
        // Text drawn by CSS (`::after { content: "Saved" }`) counts too; it costs a computed
        // style per element, so it is read only when the plain text does not settle the wait.
        const wanted = (params.text || params.textGone).toLowerCase();
        const plain = (await pageText(engine)).toLowerCase().includes(wanted);
        const found = plain || (await pageText(engine, true)).toLowerCase().includes(wanted);
        return params.text ? found : !found;
      };
      while (!engine.state.page.gone && Date.now() - started < cap) {
        if (await check()) {
          satisfied = true;
          break;
        }
        await delay(Math.min(100, Math.max(1, cap - (Date.now() - started))));
      }
    }
    return { satisfied, waitedMs: Date.now() - started, evidence: await engine.evidence.after(mark) };
  });
}
