import { type DestinationStream, type Logger, pino } from "pino";
import { redactText } from "./redact.js";

export type { Logger };

/** Paths pino blanks wherever they appear in a log record. */
export const redactPaths = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "apiKey",
  "*.apiKey",
  "api_key",
  "*.api_key",
  "token",
  "*.token",
  "password",
  "*.password",
  "databaseUrl",
  "*.databaseUrl",
];

/**
 * The backend's JSON logger. Known secret fields are redacted by path, and any message or
 * string that looks like a credential (sk-…, bt_…, AIza…, Bearer …) is masked, so a secret
 * that slips into an error message still never reaches the log.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.BATON_LOG_LEVEL ?? "info",
      base: { service: "baton-backend" },
      redact: { paths: redactPaths, censor: "[REDACTED]" },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((a) => (typeof a === "string" ? redactText(a) : a)) as Parameters<typeof method>,
          );
        },
      },
      formatters: {
        log(obj) {
          if (typeof obj.err === "object" && obj.err && "message" in obj.err) {
            const err = obj.err as { message: string; stack?: string };
            return { ...obj, err: { ...err, message: redactText(err.message), stack: err.stack ? redactText(err.stack) : undefined } };
          }
          return obj;
        },
      },
    },
    options.destination,
  );
}

/** A logger that drops everything (tests, benchmarks). */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
