import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { LogSink } from "../log/log-sink.js";

function sessionIdOf(message: unknown): string | undefined {
  const m = message as { sessionId?: unknown; step?: { sessionId?: unknown } } | undefined;
  const id = typeof m?.sessionId === "string" ? m.sessionId : typeof m?.step?.sessionId === "string" ? m.step.sessionId : undefined;
  return id || undefined;
}

/**
 * Logs every RPC with its method, session id, duration and outcome: successes at debug,
 * client-side errors (not found, invalid argument, aborted …) at info, server faults at
 * error. Request bodies and headers are never logged, so neither tokens nor page content are.
 */
export function rpcLogger(logger: LogSink): Interceptor {
  return (next) => async (req) => {
    const t0 = performance.now();
    const sessionId = req.stream ? undefined : sessionIdOf(req.message);
    try {
      const res = await next(req);
      logger.debug({ rpc: req.method.name, sessionId, ms: Math.round(performance.now() - t0) }, "rpc");
      return res;
    } catch (e) {
      const err = ConnectError.from(e);
      const fault = err.code === Code.Internal || err.code === Code.Unknown || err.code === Code.DataLoss;
      logger[fault ? "error" : "info"](
        { rpc: req.method.name, sessionId, ms: Math.round(performance.now() - t0), code: Code[err.code] },
        `rpc failed: ${err.rawMessage}`,
      );
      throw e;
    }
  };
}
