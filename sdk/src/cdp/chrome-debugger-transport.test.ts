import { describe, expect, it } from "vitest";
import { type ChromeDebuggerApi, type ChromeDebuggerTarget, ChromeDebuggerTransport } from "./chrome-debugger-transport.js";
import { CdpClosedError, CdpError, type CdpEvent } from "./transport.js";

type EventCb = (source: ChromeDebuggerTarget, method: string, params?: object) => void;
type DetachCb = (source: ChromeDebuggerTarget, reason: string) => void;

/** An in-memory chrome.debugger: the real one only exists inside an extension. */
function fakeDebugger() {
  const events = new Set<EventCb>();
  const detaches = new Set<DetachCb>();
  const sent: { target: ChromeDebuggerTarget; method: string; params?: object }[] = [];
  const api: ChromeDebuggerApi = {
    attach: async () => undefined,
    detach: async () => undefined,
    sendCommand: async (target, method, params) => {
      sent.push({ target, method, ...(params ? { params } : {}) });
      if (method === "Bad.method") throw new Error(JSON.stringify({ code: -32601, message: "'Bad.method' wasn't found" }));
      return { echoed: method };
    },
    onEvent: { addListener: (cb) => events.add(cb), removeListener: (cb) => events.delete(cb) },
    onDetach: { addListener: (cb) => detaches.add(cb), removeListener: (cb) => detaches.delete(cb) },
  };
  return { api, sent, fire: (s: ChromeDebuggerTarget, m: string, p?: object) => events.forEach((cb) => cb(s, m, p)), detach: (s: ChromeDebuggerTarget, r: string) => detaches.forEach((cb) => cb(s, r)), events };
}

describe("ChromeDebuggerTransport", () => {
  it("routes commands to the tab or to a flat child session", async () => {
    const f = fakeDebugger();
    const t = await ChromeDebuggerTransport.attach(f.api, 7);
    expect(await t.send("Page.enable")).toEqual({ echoed: "Page.enable" });
    await t.send("DOM.getDocument", { depth: 1 }, "child-1");
    expect(f.sent).toEqual([
      { target: { tabId: 7 }, method: "Page.enable", params: {} },
      { target: { tabId: 7, sessionId: "child-1" }, method: "DOM.getDocument", params: { depth: 1 } },
    ]);
  });

  it("delivers only its tab's events, tagged with their session", async () => {
    const f = fakeDebugger();
    const t = await ChromeDebuggerTransport.attach(f.api, 7);
    const got: CdpEvent[] = [];
    t.onEvent((e) => got.push(e));
    f.fire({ tabId: 7 }, "Page.loadEventFired", { timestamp: 1 });
    f.fire({ tabId: 8 }, "Page.loadEventFired", { timestamp: 2 });
    f.fire({ tabId: 7, sessionId: "s" }, "Page.frameNavigated");
    expect(got).toEqual([
      { method: "Page.loadEventFired", params: { timestamp: 1 }, sessionId: undefined },
      { method: "Page.frameNavigated", params: {}, sessionId: "s" },
    ]);
  });

  it("turns protocol errors into CdpError with the code", async () => {
    const f = fakeDebugger();
    const t = await ChromeDebuggerTransport.attach(f.api, 7);
    const e = await t.send("Bad.method").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CdpError);
    expect((e as CdpError).code).toBe(-32601);
  });

  it("closes on detach of its tab and rejects later commands", async () => {
    const f = fakeDebugger();
    const t = await ChromeDebuggerTransport.attach(f.api, 7);
    const reasons: string[] = [];
    t.onClose((r) => reasons.push(r));
    f.detach({ tabId: 7, sessionId: "child" }, "target_closed");
    expect(t.closed).toBe(false);
    f.detach({ tabId: 7 }, "canceled_by_user");
    expect(t.closed).toBe(true);
    expect(reasons).toEqual(["canceled_by_user"]);
    expect(f.events.size).toBe(0);
    await expect(t.send("Page.enable")).rejects.toBeInstanceOf(CdpClosedError);
  });
});
