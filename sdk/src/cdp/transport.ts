/**
 * The one seam between the engine and a browser. The engine speaks CDP through this interface
 * and never knows whether a WebSocket (Node) or `chrome.debugger` (extension) carries it.
 */

/** A CDP event, tagged with the flat session it came from (absent for the root session). */
export interface CdpEvent {
  /** Domain-qualified event name, such as "Page.frameNavigated". */
  readonly method: string;
  /** The event's parameters. */
  readonly params: Record<string, unknown>;
  /** The flat session the event belongs to; undefined for the root (browser or tab) session. */
  readonly sessionId?: string | undefined;
}

/** A CDP command failure, keeping the protocol's own error code and message. */
export class CdpError extends Error {
  override readonly name = "CdpError";

  constructor(
    readonly method: string,
    message: string,
    readonly code?: number,
  ) {
    super(`${method}: ${message}`);
  }
}

/** Raised for every pending and later command once the connection is gone. */
export class CdpClosedError extends CdpError {
  constructor(method: string, reason: string) {
    super(method, `connection closed (${reason})`);
  }
}

/**
 * A CDP connection with flat sessions (`Target.attachToTarget({flatten: true})`): one pipe,
 * commands addressed to a session by id, events tagged with theirs.
 */
export interface CdpTransport {
  /** Sends one command; rejects with `CdpError` on a protocol error or `CdpClosedError`. */
  send<R = Record<string, unknown>>(
    method: string,
    params?: Record<string, unknown>,
    sessionId?: string,
  ): Promise<R>;
  /** Subscribes to every event; returns the unsubscribe function. */
  onEvent(listener: (event: CdpEvent) => void): () => void;
  /** Subscribes to the connection closing (browser gone, tab closed, debugger detached). */
  onClose(listener: (reason: string) => void): () => void;
  /** True once the connection is closed. */
  readonly closed: boolean;
  /** Closes the connection; pending commands reject. */
  close(): Promise<void>;
}

/** A small listener registry shared by the transports so both dispatch events identically. */
export class Listeners<T> {
  readonly #set = new Set<(value: T) => void>();

  /** Adds a listener and returns its remover. */
  add(listener: (value: T) => void): () => void {
    this.#set.add(listener);
    return () => this.#set.delete(listener);
  }

  /** Calls every listener; a throwing listener must not starve the others. */
  emit(value: T): void {
    for (const listener of [...this.#set]) {
      try {
        listener(value);
      } catch {
        // A listener's bug is its own; the transport keeps delivering.
      }
    }
  }
}
