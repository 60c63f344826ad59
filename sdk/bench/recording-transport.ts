/**
 * Bench support: a CDP transport that records every command's method, parameters, timing (start,
 * sent, answered) and reply size, around another transport.
 */
import type { CdpEvent, CdpTransport } from "../src/cdp/transport.js";

/** One recorded command; times are performance.now() values. */
export interface Call {
  method: string;
  params?: Record<string, unknown>;
  start: number;
  end: number;
  bytes: number;
  sent?: number;
}

/** A transport that records every command's timing and reply size. */
export class Recording implements CdpTransport {
  calls: Call[] = [];
  constructor(readonly inner: CdpTransport) {}
  get closed(): boolean {
    return this.inner.closed;
  }
  async send<R>(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<R> {
    const call: Call = { method, params, start: performance.now(), end: 0, bytes: 0 };
    this.calls.push(call);
    const pr = this.inner.send<R>(method, params, sessionId);
    call.sent = performance.now();
    try {
      const r = await pr;
      call.bytes = JSON.stringify(r).length;
      return r;
    } finally {
      call.end = performance.now();
    }
  }
  onEvent(l: (e: CdpEvent) => void): () => void {
    return this.inner.onEvent(l);
  }
  onClose(l: (r: string) => void): () => void {
    return this.inner.onClose(l);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
