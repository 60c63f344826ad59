/**
 * The HTML report of `baton eval` in headless Chromium at 1280 and 800 px wide: the page fits
 * the window, and still fits with a final page opened at full size. Screenshots go to
 * `.artifacts/eval-report/`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type LaunchedChromium, launchChromium, openPage, WebSocketTransport } from "@baton/sdk/node";
import { engineProbe } from "@baton/sdk/script";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlReport } from "./html-report.js";
import type { ReportRow } from "./report.js";

const artifacts = resolve(import.meta.dirname, "../../../../.artifacts/eval-report");
let browser: LaunchedChromium;
let transport: WebSocketTransport;
let shot = "";

beforeAll(async () => {
  mkdirSync(artifacts, { recursive: true });
  browser = await launchChromium();
  transport = await WebSocketTransport.connect(browser.wsEndpoint);
  // A final page as the harness takes it: the visible part of a 1280×800 page at half size.
  const page = await openPage(transport, { viewport: { width: 1280, height: 800 } });
  await page.page.send("Page.navigate", { url: `data:text/html,${encodeURIComponent("<meta charset=utf-8><body style='font:24px system-ui;margin:40px;background:#eef'><h1>Your basket</h1><p>Two large blue mugs · Express delivery</p></body>")}` });
  await new Promise((r) => setTimeout(r, 300));
  const r = await page.page.send<{ data: string }>("Page.captureScreenshot", { format: "jpeg", quality: 70, clip: { x: 0, y: 0, width: 1280, height: 800, scale: 0.5 } });
  shot = `data:image/jpeg;base64,${r.data}`;
  await transport.send("Target.closeTarget", { targetId: page.page.targetId });
}, 60_000);

afterAll(async () => {
  await transport?.close();
  await browser?.close();
});

function row(task: string, verdict: ReportRow["verdict"]): ReportRow {
  return {
    task,
    attempt: 1,
    via: "headless",
    model: "script:x.json",
    verdict,
    ...(verdict === "pass" ? {} : { failed_check: "state", reason: "GET /api/state: cart.lines[0].qty: expected 2, got 1" }),
    checks: [],
    status: "completed",
    answer: "Two large blue mugs are in the basket, with express delivery.",
    steps: 6,
    wall_ms: 3400,
    model_ms: 40,
    tool_ms: 3100,
    tokens_in: 4200,
    tokens_out: 160,
    cost_usd: 0,
    tool_calls: ["take_snapshot", "type_text", "click", "click", "click", "select_option", "click", "done"],
    errors: [],
    approvals: 0,
    session_id: "ses_1",
    started_at: "2026-05-01T10:00:00.000Z",
    screenshot: shot,
  };
}

/** How far the page reaches past the window's right edge, in CSS pixels (0: it fits). */
async function overflow(engine: Awaited<ReturnType<typeof openPage>>): Promise<number> {
  return Number(await engineProbe(engine).evaluate("document.scrollingElement.scrollWidth - innerWidth"));
}

describe("the eval HTML report at the widths people use", () => {
  for (const width of [1280, 800]) {
    it(`fits ${width} px, with a final page opened at full size too`, async () => {
      const html = htmlReport([row("shop/quantity-stepper", "fail"), row("shop/coupon", "pass")], { title: "baton eval", goals: new Map([["shop/coupon", "Apply the coupon code WELCOME10 to my cart."]]) });
      const file = join(artifacts, "report.html");
      writeFileSync(file, html);
      const engine = await openPage(transport, { viewport: { width, height: 800 } });
      try {
        await engine.page.send("Page.navigate", { url: `file://${file}` });
        await expect.poll(() => engineProbe(engine).evaluate("document.readyState"), { timeout: 15_000 }).toBe("complete");
        expect(await overflow(engine)).toBe(0);
        // Open the first run's final page, as a click on its thumbnail does.
        await engineProbe(engine).evaluate(`document.querySelector("details summary").click()`);
        expect(await engineProbe(engine).evaluate(`document.querySelector("details").open`)).toBe(true);
        const opened = JSON.parse(String(await engineProbe(engine).evaluate(`JSON.stringify(document.querySelector("details img").getBoundingClientRect())`))) as { width: number; right: number };
        // Shown bigger than the thumbnail, and within the window.
        expect(opened.width).toBeGreaterThan(320);
        expect(opened.right).toBeLessThanOrEqual(width);
        expect(await overflow(engine)).toBe(0);
        const r = await engine.page.send<{ data: string }>("Page.captureScreenshot", { format: "png" });
        writeFileSync(join(artifacts, `eval-report-open-${width}.png`), Buffer.from(r.data, "base64"));
      } finally {
        await transport.send("Target.closeTarget", { targetId: engine.page.targetId });
      }
    });
  }
});
