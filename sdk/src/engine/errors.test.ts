import { create } from "@bufbuild/protobuf";
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import {
  ClickParamsSchema,
  NavigateParamsSchema,
  TakeSnapshotParamsSchema,
  ToolCallSchema,
  UploadFileParamsSchema,
} from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchToolCall, ToolErrorCode } from "../contract/index.js";
import { type Harness, startHarness } from "./fixtures/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function refFor(role: string, name: string): Promise<string> {
  const r = await h.tools.takeSnapshot(create(TakeSnapshotParamsSchema, {}), undefined);
  const ref = (r.text ?? "").split("\n").find((l) => l.includes(` ${role} "${name}"`))?.match(/^\s*(e\d+) /)?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" in\n${r.text}`);
  return ref;
}

/** Runs a call through the real dispatcher, the way the client driver does. */
function run(tool: Parameters<typeof create<typeof ToolCallSchema>>[1]) {
  return dispatchToolCall(toolCatalog, create(ToolCallSchema, tool), h.tools, undefined);
}

describe("bad input gets a clear ToolError, never a hang", () => {
  it("unknown ref → UNKNOWN_REF with a fresh snapshot", async () => {
    await h.goto("/basic");
    const r = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref: "e99999" }) } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(ToolErrorCode.UNKNOWN_REF);
    expect(r.error.field).toBe("ref");
    expect(r.error.snapshot?.text).toContain('button "Save"');
  });

  it("a re-rendered element → STALE_REF with a fresh snapshot holding the new ref", async () => {
    await h.goto("/rerender");
    const old = await refFor("button", "Open 1");
    await h.evaluate("render(), 1");
    const r = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref: old }) } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(ToolErrorCode.STALE_REF);
    const fresh = /(e\d+) button "Open 1"/.exec(r.error.snapshot?.text ?? "")?.[1];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(old);
  });

  it("a ref inside a detached frame → STALE_REF", async () => {
    await h.goto("/frames");
    const ref = await refFor("button", "Level 2 button");
    await h.evaluate("document.querySelector('iframe').remove(), 1");
    const r = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref }) } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(ToolErrorCode.STALE_REF);
  });

  it("a ref from before a navigation → STALE_REF, never another element", async () => {
    await h.goto("/basic");
    const ref = await refFor("button", "Save");
    await h.goto("/basic");
    const r = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref }) } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(ToolErrorCode.STALE_REF);
  });

  it("a covered element → NOT_ACTIONABLE naming what covers it", async () => {
    await h.goto("/modal");
    const ref = await refFor("button", "Accept cookies");
    // Cover the dialog after the snapshot, as a late banner would.
    await h.evaluate(
      "(() => { const d = document.createElement('div'); d.id = 'late'; d.style.cssText = 'position:fixed;inset:0;z-index:99;background:rgba(0,0,0,.1)'; document.body.append(d); return 1; })()",
    );
    const r = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref }) } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(ToolErrorCode.NOT_ACTIONABLE);
    expect(r.error.message).toContain("late");
    expect(await h.evaluate<string[]>("window.__log")).not.toContain("click:Accept cookies");
  });

  it("the page navigating as the pointer arrives → NAVIGATED, and no click lands", async () => {
    await h.goto("/nav");
    const ref = await refFor("button", "Runaway");
    const r = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref }) } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(ToolErrorCode.NAVIGATED);
    expect(r.error.snapshot?.url).toMatch(/\/nav\/next\?from=hover$/);
  });

  it("a missing upload file → NOT_FOUND", async () => {
    await h.goto("/upload");
    const ref = await refFor("button", "Attachment");
    const r = await run({
      tool: { case: "uploadFile", value: create(UploadFileParamsSchema, { ref, paths: ["/nonexistent/baton/nope.pdf"] }) },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(ToolErrorCode.NOT_FOUND);
  });

  it("a non-http URL → PERMISSION_DENIED; an unreachable one → NOT_FOUND", async () => {
    const a = await run({ tool: { case: "navigate", value: create(NavigateParamsSchema, { url: "file:///etc/passwd" }) } });
    expect(!a.ok && a.error.code).toBe(ToolErrorCode.PERMISSION_DENIED);
    const b = await run({ tool: { case: "navigate", value: create(NavigateParamsSchema, { url: "http://127.0.0.1:1/" }) } });
    expect(!b.ok && b.error.code).toBe(ToolErrorCode.NOT_FOUND);
  });

  it("a crashed tab → TARGET_GONE, fast", async () => {
    await h.goto("/basic");
    const ref = await refFor("button", "Save");
    await h.engine.page.send("Page.crash").catch(() => undefined);
    const started = Date.now();
    const r = await run({ tool: { case: "click", value: create(ClickParamsSchema, { ref }) } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe(ToolErrorCode.TARGET_GONE);
    const s = await run({ tool: { case: "takeSnapshot", value: create(TakeSnapshotParamsSchema, {}) } });
    expect(!s.ok && s.error.code).toBe(ToolErrorCode.TARGET_GONE);
    expect(Date.now() - started).toBeLessThan(15_000);
    await h.reopen();
  });
});
