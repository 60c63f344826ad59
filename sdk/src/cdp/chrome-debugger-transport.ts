import { CdpClosedError, CdpError, type CdpEvent, type CdpTransport, Listeners } from "./transport.js";

/**
 * The part of `chrome.debugger` the transport needs, declared here so the SDK needs no
 * `@types/chrome` and tests can drive the transport through the very same shape.
 */
export interface ChromeDebuggerTarget {
  /** The tab being debugged. */
  tabId?: number;
  /** Another target by id. */
  targetId?: string;
  /** A flat child session (Chrome 125+), for OOPIFs auto-attached under the tab. */
  sessionId?: string;
}

/** Minimal typed view of `chrome.debugger` (promise-returning MV3 API). */
export interface ChromeDebuggerApi {
  attach(target: ChromeDebuggerTarget, requiredVersion: string): Promise<void>;
  detach(target: ChromeDebuggerTarget): Promise<void>;
  sendCommand(target: ChromeDebuggerTarget, method: string, commandParams?: object): Promise<object | undefined>;
  onEvent: {
    addListener(cb: (source: ChromeDebuggerTarget, method: string, params?: object) => void): void;
    removeListener(cb: (source: ChromeDebuggerTarget, method: string, params?: object) => void): void;
  };
  onDetach: {
    addListener(cb: (source: ChromeDebuggerTarget, reason: string) => void): void;
    removeListener(cb: (source: ChromeDebuggerTarget, reason: string) => void): void;
  };
}

/** Reads `chrome.runtime.lastError`-style failures that the promise API surfaces as errors. */
function asCdpError(method: string, e: unknown): CdpError {
  if (e instanceof CdpError) return e;
  const text = e instanceof Error ? e.message : String(e);
  // chrome.debugger reports protocol errors as a JSON string: {"code":-32000,"message":"…"}.
  try {
    const parsed = JSON.parse(text) as { code?: number; message?: string };
    if (parsed && typeof parsed.message === "string") return new CdpError(method, parsed.message, parsed.code);
  } catch {
    // Not JSON: keep the text as it is.
  }
  return new CdpError(method, text);
}

/**
 * CDP through `chrome.debugger`, attached to one tab. Commands without a session go to the
 * tab; commands with one go to the flat child session (auto-attached OOPIFs).
 */
export class ChromeDebuggerTransport implements CdpTransport {
  readonly #api: ChromeDebuggerApi;
  readonly #tabId: number;
  readonly #events = new Listeners<CdpEvent>();
  readonly #closes = new Listeners<string>();
  #closed = false;
  readonly #onEvent = (source: ChromeDebuggerTarget, method: string, params?: object): void => {
    if (source.tabId !== this.#tabId) return;
    this.#events.emit({ method, params: (params ?? {}) as Record<string, unknown>, sessionId: source.sessionId });
  };
  readonly #onDetach = (source: ChromeDebuggerTarget, reason: string): void => {
    if (source.tabId !== this.#tabId || source.sessionId) return;
    this.#shutdown(reason);
  };

  private constructor(api: ChromeDebuggerApi, tabId: number) {
    this.#api = api;
    this.#tabId = tabId;
    api.onEvent.addListener(this.#onEvent);
    api.onDetach.addListener(this.#onDetach);
  }

  /** Attaches the debugger to a tab (protocol 1.3) and returns the transport for it. */
  static async attach(api: ChromeDebuggerApi, tabId: number): Promise<ChromeDebuggerTransport> {
    await api.attach({ tabId }, "1.3");
    return new ChromeDebuggerTransport(api, tabId);
  }

  get closed(): boolean {
    return this.#closed;
  }

  async send<R = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<R> {
    if (this.#closed) throw new CdpClosedError(method, "debugger detached");
    const target: ChromeDebuggerTarget = sessionId ? { tabId: this.#tabId, sessionId } : { tabId: this.#tabId };
    try {
      return ((await this.#api.sendCommand(target, method, params)) ?? {}) as R;
    } catch (e) {
      throw asCdpError(method, e);
    }
  }

  onEvent(listener: (event: CdpEvent) => void): () => void {
    return this.#events.add(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    return this.#closes.add(listener);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#api.detach({ tabId: this.#tabId });
    } catch {
      // Already detached (tab closed, user cancelled the infobar): nothing left to release.
    }
    this.#shutdown("closed by client");
  }

  #shutdown(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#api.onEvent.removeListener(this.#onEvent);
    this.#api.onDetach.removeListener(this.#onDetach);
    this.#closes.emit(reason);
  }
}
