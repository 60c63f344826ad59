import { type ChromeDebuggerApi, ChromeDebuggerTransport } from "@baton/sdk/cdp";
import { PageSession } from "@baton/sdk/engine";
import { DomEngine } from "@baton/sdk/engine/dom";
import type { ContentMessage, MaskState } from "../messages.js";
import { scriptingRunner } from "./dom-runner.js";

/** `chrome.debugger` as the SDK's transport expects it (the same shape, typed once there). */
export const debuggerApi: ChromeDebuggerApi = chrome.debugger as unknown as ChromeDebuggerApi;

/** How the agent reaches one tab. */
export type TabConnection =
  /** The debugger is attached: the CDP engine runs on this page session. */
  | { readonly kind: "debugger"; readonly transport: ChromeDebuggerTransport; readonly page: PageSession }
  /** The debugger cannot attach, but scripts can run: the DOM fallback. */
  | { readonly kind: "dom"; readonly engine: DomEngine; readonly why: string }
  /** Chrome lets no extension in (chrome://, the Web Store, other extensions' pages). */
  | { readonly kind: "restricted"; readonly url: string; readonly why: string };

/** Why a tab is reached through the page when the user chose it. */
export const withoutDebuggerReason = "you chose to continue without Chrome's debugger";

/** What a tab driver tells its owner. */
export interface TabDriverHooks {
  /** The debugger detached from the tab without being asked (the user cancelled it, the tab closed). */
  onDetach(tabId: number, reason: string): void;
}

/** The URL Chrome shows for a tab, from the debugger's target list (no `tabs` permission needed). */
async function urlOf(tabId: number): Promise<string> {
  const targets = await chrome.debugger.getTargets().catch(() => []);
  return targets.find((t) => t.tabId === tabId)?.url ?? (await chrome.tabs.get(tabId).catch(() => undefined))?.url ?? "";
}

/** A short, plain reason from a `chrome.debugger` or `chrome.scripting` error. */
function reasonOf(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/^Error:\s*/, "");
}

/**
 * One tab the agent owns, and how it is reached: the debugger when it attaches; the DOM
 * fallback through `chrome.scripting` when only the debugger is refused (another debugger
 * holds the tab); or nothing, with the reason, where Chrome lets no extension in. Also draws
 * the mask and the highlight through the content script, which it injects on first use in
 * each document.
 */
export class TabDriver {
  #conn: TabConnection | undefined;
  #connecting: Promise<TabConnection> | undefined;
  /** The user chose to go on without the debugger (after cancelling its bar). */
  #withoutDebugger = false;
  #mask: MaskState = "off";
  /** Mask changes, one at a time: each sends the state current when it runs. */
  #maskQueue: Promise<void> = Promise.resolve();
  /** The state the page last confirmed. */
  #maskShown: MaskState | undefined;
  /** A pending switch back to "watching" after a call (see `relax`). */
  #watchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly tabId: number,
    private readonly hooks: TabDriverHooks,
  ) {}

  /** The current connection, without connecting. */
  get connection(): TabConnection | undefined {
    const c = this.#conn;
    if (c?.kind === "debugger" && (c.transport.closed || c.page.gone)) return undefined;
    return c;
  }

  /** Connects (or reuses the live connection). */
  connect(): Promise<TabConnection> {
    const live = this.connection;
    if (live && live.kind !== "restricted") return Promise.resolve(live);
    this.#connecting ??= this.#open().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  /** From now on, reach this tab through the page (the DOM fallback), never the debugger. */
  async withoutDebugger(): Promise<void> {
    this.#withoutDebugger = true;
    const c = this.#conn;
    this.#conn = undefined;
    if (c?.kind === "debugger") {
      c.page.dispose();
      await c.transport.close();
    }
  }

  async #open(): Promise<TabConnection> {
    let transport: ChromeDebuggerTransport | undefined;
    let refused = "";
    try {
      if (this.#withoutDebugger) throw new Error(withoutDebuggerReason);
      transport = await ChromeDebuggerTransport.attach(debuggerApi, this.tabId);
    } catch (e) {
      refused = reasonOf(e);
      // A panel that was closed mid-run may have left our own session attached: take it back.
      if (/already attached/i.test(refused) && (await chrome.debugger.detach({ tabId: this.tabId }).then(() => true, () => false))) {
        transport = await ChromeDebuggerTransport.attach(debuggerApi, this.tabId).catch((e2: unknown) => {
          refused = reasonOf(e2);
          return undefined;
        });
      }
    }
    if (transport) {
      try {
        const { targetInfo } = await transport.send<{ targetInfo: { targetId: string } }>("Target.getTargetInfo");
        const page = await PageSession.open(transport, "", targetInfo.targetId);
        transport.onClose((reason) => {
          if (reason !== "closed by client") this.hooks.onDetach(this.tabId, reason);
        });
        this.#conn = { kind: "debugger", transport, page };
        await this.mask(this.#mask);
        return this.#conn;
      } catch (e) {
        refused = reasonOf(e);
        await transport.close();
      }
    }
    // No debugger: the DOM fallback, if scripts may run here at all.
    try {
      await this.#inject();
      this.#conn = { kind: "dom", engine: new DomEngine(scriptingRunner(this.tabId)), why: refused };
      await this.mask(this.#mask);
    } catch (e) {
      this.#conn = { kind: "restricted", url: await urlOf(this.tabId), why: `${refused}; ${reasonOf(e)}` };
    }
    return this.#conn;
  }

  /** Injects the content script (a no-op where it already runs). */
  async #inject(): Promise<void> {
    await chrome.scripting.executeScript({ target: { tabId: this.tabId }, files: ["content-script.js"] });
  }

  /**
   * Shows, relaxes or removes the mask; resolves once the page applied it (so the agent's
   * input is never sent while the mask still blocks). Changes apply in order, each with the
   * state current when it is sent, so a slow first injection cannot undo a later change.
   */
  mask(state: MaskState): Promise<void> {
    clearTimeout(this.#watchTimer);
    this.#mask = state;
    if (this.#maskShown === state) return this.#maskQueue;
    this.#maskQueue = this.#maskQueue.then(() => this.#applyMask()).catch(() => undefined);
    return this.#maskQueue;
  }

  /**
   * After a call: back to "watching" unless another call starts within `ms`. The calls of one
   * model turn run back to back with the mask letting them through; toggling it between them
   * would move the page's hover state (boundary events under the pointer), which the engine
   * rightly counts as a change, so it could not reuse the snapshot a call just took.
   */
  relax(ms = 1000): void {
    clearTimeout(this.#watchTimer);
    this.#watchTimer = setTimeout(() => void this.mask("watching"), ms);
  }

  /** Applies the current mask state again (a new document has no mask yet). */
  remask(): Promise<void> {
    this.#maskShown = undefined;
    this.#maskQueue = this.#maskQueue.then(() => this.#applyMask()).catch(() => undefined);
    return this.#maskQueue;
  }

  /**
   * Sends the current state until the page shows what is current: a change asked for while a
   * state was on its way (the relax timer's "watching" in flight when the next call asks for
   * "acting") would otherwise be answered by `mask` as already shown, and the call would act
   * under a veil that blocks its input.
   */
  async #applyMask(): Promise<void> {
    if (this.#conn?.kind === "restricted") return;
    for (;;) {
      const state = this.#mask;
      const message: ContentMessage = { to: "content", kind: "mask", state };
      let sent = await chrome.tabs.sendMessage(this.tabId, message).then(() => true, () => false);
      if (!sent && state !== "off") {
        // A new document (navigation) has no content script yet.
        await this.#inject().catch(() => undefined);
        sent = await chrome.tabs.sendMessage(this.tabId, message).then(() => true, () => false);
      }
      this.#maskShown = sent ? state : undefined;
      if (this.#mask === state) return;
    }
  }

  /** Outlines an element for a moment (best effort). */
  async highlight(box: { x: number; y: number; width: number; height: number }, label: string): Promise<void> {
    const message: ContentMessage = { to: "content", kind: "highlight", box, label };
    await chrome.tabs.sendMessage(this.tabId, message).catch(() => undefined);
  }

  /** Forgets the connection (a navigation to a page that may differ in what it allows). */
  reset(): void {
    if (this.#conn?.kind !== "debugger") this.#conn = undefined;
  }

  /** Takes the mask off and detaches the debugger. */
  async release(): Promise<void> {
    clearTimeout(this.#watchTimer);
    await this.mask("off").catch(() => undefined);
    const c = this.#conn;
    this.#conn = undefined;
    if (c?.kind === "debugger") {
      c.page.dispose();
      await c.transport.close();
    }
  }
}
