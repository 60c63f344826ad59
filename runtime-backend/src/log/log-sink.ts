import type { Logger } from "pino";

/**
 * What the agent loop and the RPC layer log through: the four levels of pino's `Logger`, so a
 * browser page (the extension's standalone mode) can run them without pino.
 */
export type LogSink = Pick<Logger, "debug" | "info" | "warn" | "error">;

const drop = (): void => undefined;

/** A sink that drops everything: the loop's default when no logger is given. */
export const silentSink: LogSink = { debug: drop, info: drop, warn: drop, error: drop };
