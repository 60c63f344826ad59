import type { ExtractParams, ScreenshotParams } from "@baton/gen/baton/v1/tools_pb";
import { ExtractFormat } from "@baton/gen/baton/v1/tools_pb";
import type { EngineParts } from "../parts.js";
import { viewportOf } from "../page-state.js";
import { declaration, invocation } from "../base/page-function.js";
import { type ExtractedContent, extractContent } from "../in-page/page-content.js";
import { captureJpeg, captureLabelledScreenshot } from "../snapshot/screenshot.js";
import { sanitizeText, sanitizeUrl } from "../base/sanitize.js";
import type { ScreenMask } from "../../contract/index.js";

/** screenshot: viewport, full page, or one element; optionally with ref labels; secrets (`mask`) and refused sites' frames painted over. */
export async function screenshot(engine: Pick<EngineParts, "state" | "targeting">, params: ScreenshotParams, mask?: ScreenMask) {
  return engine.state.guard(async () => {
    const quality = params.quality ?? 70;
    // Secrets and frames of refused sites are painted over in whichever image goes out.
    const cover = { unreadable: engine.state.unreadable, ...(mask ? { mask } : {}) };
    const snap = await engine.state.pageSnapshot();
    const viewport = viewportOf(snap);
    if (params.ref) {
      const el = await engine.targeting.resolve(params.ref, "ref");
      await engine.state.page.send("DOM.scrollIntoViewIfNeeded", { backendNodeId: el.entry.backendNodeId }, el.entry.sessionId).catch(() => undefined);
      const after = await engine.state.pageSnapshot();
      const box = after.elements.find((e) => e.ref === el.entry.ref)?.box ?? el.entry.box;
      if (box) {
        const m = after.layout.metrics.cssLayoutViewport;
        const clip = { x: box.x + m.pageX, y: box.y + m.pageY, width: Math.max(1, box.width), height: Math.max(1, box.height) };
        return { image: await captureJpeg(engine.state.page, { quality, clip, ...cover }), viewport: viewportOf(after) };
      }
    }
    if (params.labelRefs && !params.fullPage) {
      return { image: await captureLabelledScreenshot(engine.state.page, snap.elements.filter((e) => !e.offscreen), { quality, ...cover }), viewport };
    }
    return { image: await captureJpeg(engine.state.page, { quality, fullPage: params.fullPage, ...cover }), viewport };
  });
}

/** extract: the page (or one element) as Markdown, plain text or links, paged by characters. */
export async function extract(engine: Pick<EngineParts, "state" | "targeting">, params: ExtractParams) {
  return engine.state.guard(async () => {
    const format = params.format === ExtractFormat.UNSPECIFIED ? ExtractFormat.MARKDOWN : params.format;
    const formatName = format === ExtractFormat.TEXT ? "text" : format === ExtractFormat.LINKS ? "links" : "markdown";
    let r: ExtractedContent;
    if (params.ref) {
      const el = await engine.targeting.resolve(params.ref, "ref");
      r = await engine.targeting.call(el, declaration(extractContent), [formatName]);
    } else {
      const res = await engine.state.page.send<{ result: { value?: typeof r } }>("Runtime.evaluate", {
        expression: invocation(extractContent, formatName),
        returnByValue: true,
      });
      r = res.result.value ?? { content: "", links: [] };
    }
    // Links in Markdown carry URLs: sanitise them the same way as everywhere else.
    const content = r.content
      .replace(/\]\(([^)\s]+)\)/g, (_, u: string) => `](${sanitizeUrl(u)})`)
      .replace(/[\u0000-\u0008\u000b-\u001f\u2028\u2029\u202a-\u202e]/g, " ");
    const max = params.maxChars ?? 20_000;
    const offset = params.offset ?? 0;
    const page = content.slice(offset, offset + max);
    const main = engine.state.page.mainFrame();
    return {
      url: sanitizeUrl(main?.url ?? ""),
      title: sanitizeText(engine.state.lastSnapshot?.title ?? "", 200),
      content: page,
      ...(offset + max < content.length ? { nextOffset: offset + max } : {}),
      links: format === ExtractFormat.LINKS || format === ExtractFormat.MARKDOWN
        ? r.links.slice(0, 200).map((l) => ({ text: sanitizeText(l.text, 120), url: sanitizeUrl(l.url), ref: "" }))
        : [],
    };
  });
}
