import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, NavigateParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mouseClick } from "../actions/input.js";
import { type Harness, startHarness } from "../fixtures/harness.js";
import { defaultQuietWindowMs, settle } from "./settle.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Buttons whose handlers react the ways a page reacts to a click, added to /basic. */
const reactions = `(() => {
  const add = (name) => { const b = document.createElement("button"); b.textContent = name; document.body.append(b); };
  const mk = (label, fn) => { const b = document.createElement("button"); b.textContent = label; b.onclick = fn; document.body.prepend(b); };
  mk("Sync", () => add("Added sync"));
  mk("Inert", () => {});
  const frame = document.createElement("iframe");
  frame.srcdoc = "<p>inside</p>";
  document.body.append(frame);
  mk("Frame soon", () => setTimeout(() => frame.contentDocument.body.append(Object.assign(document.createElement("button"), { textContent: "Added in frame" })), 0));
  mk("Fetch", () => fetch("/slow").then((r) => r.text()).then(() => add("Added after fetch")));
  mk("Twice", () => { document.title = "Clicked"; setTimeout(() => add("Added at 40 ms"), 40); });
  mk("Churn", () => { let n = 0; const t = setInterval(() => { document.title = "churn " + ++n; if (n > 100) clearInterval(t); }, 10); });
})(), 1`;

async function setUp(): Promise<void> {
  await h.goto("/basic");
  await h.evaluate(reactions);
  // The frame's document loaded and its tracker has seen its last mutation.
  await h.evaluate("new Promise((r) => setTimeout(r, 100))");
}

function refOf(name: string): string {
  const el = h.engine.lastSnapshot?.elements.find((e) => e.role === "button" && e.name === name);
  if (!el) throw new Error(`no button "${name}" in the last snapshot`);
  return el.ref;
}

/** Clicks a button with real input events and returns how long settle then took. */
async function timedSettle(name: string, early = false): Promise<number> {
  await h.engine.pageSnapshot();
  const el = await h.engine.targeting.resolve(refOf(name), "ref");
  const point = await h.engine.targeting.actionPoint(el, "ref");
  const mark = h.engine.evidence.mark();
  await mouseClick(h.engine.page, point);
  const t0 = performance.now();
  const report = await settle(h.engine.page, mark.loadsStarted, {}, undefined, early ? mark.at : undefined);
  expect(report.notes).toEqual([]);
  expect(report.early ?? false).toBe(early && name === "Inert");
  if (name === "Frame soon") expect(await h.evaluate("document.querySelector('iframe').contentDocument.body.textContent")).toContain("Added in frame");
  return performance.now() - t0;
}

describe("settle: concurrent conditions, windows measured from the last activity", () => {
  it("a click whose handler mutates synchronously settles in about one quiet window", async () => {
    await setUp();
    const times: number[] = [];
    for (let i = 0; i < 3; i++) times.push(await timedSettle("Sync"));
    const median = [...times].sort((a, b) => a - b)[1]!;
    // The window runs from the mutation, which landed just before settle started.
    expect(median).toBeGreaterThanOrEqual(defaultQuietWindowMs - 20);
    // Loose for a loaded 2-core machine; the serial design took two frames + 60 + 60 ms and more.
    expect(median).toBeLessThan(defaultQuietWindowMs + 100);
    // And the click tool's evidence has the mutation.
    await h.engine.pageSnapshot();
    const r = await h.tools.click(create(ClickParamsSchema, { ref: refOf("Sync") }), undefined);
    const added = h.engine.lastSnapshot?.elements.filter((e) => e.name === "Added sync").map((e) => e.ref) ?? [];
    expect(added.length).toBe(4);
    expect(r.evidence?.refsAdded).toContain(added.at(-1));
  });

  it("ends after the frames when the page did not react at all since the action, and not when it did", async () => {
    await setUp();
    // Nothing mutated, no request, no load: no quiet window (the flag, not a time, is asserted).
    await timedSettle("Inert", true);
    // A synchronous mutation: the whole window, as without the action's time.
    await timedSettle("Sync", true);
    // A frame's document changing while the top one waits for its frames: not early either.
    await timedSettle("Frame soon", true);
    // The click tool passes the action's time: a fetch without a mutation is still waited for
    // (the next test), and a title change plus a mutation 40 ms later is still seen (below).
  });

  it("waits for a fetch the click started (answered after 300 ms) and shows what it rendered", async () => {
    await setUp();
    await h.engine.pageSnapshot();
    const t0 = performance.now();
    const r = await h.tools.click(create(ClickParamsSchema, { ref: refOf("Fetch") }), undefined);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(300);
    expect(r.evidence?.notes).toEqual([]);
    expect(r.evidence?.refsAdded).toContain(refOf("Added after fetch"));
  });

  it("sees a second mutation 40 ms after the first", async () => {
    await setUp();
    await h.engine.pageSnapshot();
    const r = await h.tools.click(create(ClickParamsSchema, { ref: refOf("Twice") }), undefined);
    expect(r.evidence?.title).toBe("Clicked");
    expect(r.evidence?.refsAdded).toContain(refOf("Added at 40 ms"));
  });

  it("stops at its cap on a page that keeps changing, and says so", async () => {
    await setUp();
    await h.engine.pageSnapshot();
    const el = await h.engine.targeting.resolve(refOf("Churn"), "ref");
    const point = await h.engine.targeting.actionPoint(el, "ref");
    const mark = h.engine.evidence.mark();
    await mouseClick(h.engine.page, point);
    const t0 = performance.now();
    const report = await settle(h.engine.page, mark.loadsStarted, { quietTimeoutMs: 300 });
    const took = performance.now() - t0;
    expect(report.notes).toContain("page still changing");
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(1500);
  });
});

/** Runs `fn` while counting the CDP commands the engine's page sends, by method. */
async function countingCommands<T>(fn: () => Promise<T>): Promise<{ result: T; count: (method: string) => number }> {
  const page = h.engine.page;
  const sent: string[] = [];
  const original = page.send;
  page.send = ((method: string, ...rest: unknown[]) => {
    sent.push(method);
    return (original as (...a: unknown[]) => Promise<unknown>).call(page, method, ...rest);
  }) as typeof page.send;
  try {
    const result = await fn();
    return { result, count: (m) => sent.filter((s) => s === m).length };
  } finally {
    // Back to the prototype's method.
    delete (page as { send?: unknown }).send;
  }
}

describe("the evidence snapshot overlaps settling", () => {
  it("is kept when the page changed only before it started: one page read for the whole click", async () => {
    await setUp();
    await h.engine.pageSnapshot();
    const { result: r, count } = await countingCommands(() => h.tools.click(create(ClickParamsSchema, { ref: refOf("Sync") }), undefined));
    // The hit test took the fast path (no layout read) and the evidence snapshot was not retaken.
    expect(count("DOMSnapshot.captureSnapshot")).toBe(1);
    expect(r.evidence?.refsAdded).toContain(h.engine.lastSnapshot?.elements.filter((e) => e.name === "Added sync").at(-1)?.ref);
  });

  it("is retaken when the page changes during settling, and the evidence shows the later change", async () => {
    await setUp();
    await h.engine.pageSnapshot();
    const { result: r, count } = await countingCommands(() => h.tools.click(create(ClickParamsSchema, { ref: refOf("Twice") }), undefined));
    expect(count("DOMSnapshot.captureSnapshot")).toBe(2);
    expect(r.evidence?.refsAdded).toContain(refOf("Added at 40 ms"));
  });
});

describe("settle's scope: the page's background frames", () => {
  /** Clicks a button through the click tool; returns the result and how long the tool took. */
  async function timedClick(name: string) {
    await h.engine.pageSnapshot();
    const t0 = performance.now();
    const r = await h.tools.click(create(ClickParamsSchema, { ref: refOf(name) }), undefined);
    return { r, ms: performance.now() - t0 };
  }

  it("does not wait for a cross-origin frame that fetches and animates on its own", async () => {
    await h.goto("/with-ad");
    // The ad is alive: its text keeps changing.
    const page = h.engine.page;
    const adFrame = [...page.frames.values()].find((f) => f.url.endsWith("/ad"));
    expect(adFrame).toBeDefined();
    // Everything counted, the page never settles: the ad's fetches and mutations run the cap out.
    const all = await settle(page, page.loadsStarted, { quietTimeoutMs: 600 }, adFrame?.id);
    expect(all.notes.join(" ")).toMatch(/network still busy|page still changing/);
    // An action in the top document waits for the top document only.
    const { r, ms } = await timedClick("Main action");
    expect(r.evidence?.notes).toEqual([]);
    expect(ms).toBeLessThan(1000);
    expect(await h.evaluate<string>("document.body.innerText")).toContain("Main clicked");
  });

  it("forgets the requests of frames that went away: leaving a busy page does not hold the next settle", async () => {
    await h.goto("/with-ad");
    // The ad's frame goes with its document; its last fetches are never reported finished.
    const t0 = performance.now();
    const r = await h.tools.navigate(create(NavigateParamsSchema, { url: `${h.server.originA}/basic` }), undefined);
    expect(r.evidence?.notes).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(1500);
  });

  it("waits for the frame the action targeted, cross-origin or not", async () => {
    await h.goto("/with-ad");
    const { r, ms } = await timedClick("Widget action");
    // The widget's fetch takes 300 ms; its result is in the evidence.
    expect(ms).toBeGreaterThanOrEqual(300);
    expect(r.evidence?.notes).toEqual([]);
    expect(h.engine.lastSnapshot?.elements.some((e) => e.role === "button" && e.name === "Widget done")).toBe(true);
  });
});
