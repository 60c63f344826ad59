import { type DestinationStream, type Logger, pino } from "pino";
import { type Redact, redactText } from "./redact.js";

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
 * The backend's JSON logger. Known secret fields are redacted by path, and the message, every
 * string field of a record (a session id a client made up is client input) and an error's
 * message and stack go through `redact` (credential-shaped strings by default; the operator's
 * own keys too when the backend passes its redactor), so a secret that slips into an error
 * message still never reaches the log.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream; redact?: Redact } = {}): Logger {
  const redact = options.redact ?? redactText;
  return pino(
    {
      level: options.level ?? process.env.BATON_LOG_LEVEL ?? "info",
      base: { service: "baton-backend" },
      redact: { paths: redactPaths, censor: "[REDACTED]" },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((a) => (typeof a === "string" ? redact(a) : a)) as Parameters<typeof method>,
          );
        },
      },
      formatters: {
        log(obj) {
          const out: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(obj)) out[k] = typeof v === "string" ? redact(v) : v;
          if (typeof obj.err === "object" && obj.err && "message" in obj.err) {
            const err = obj.err as { message: string; stack?: string };
            out.err = { ...err, message: redact(err.message), stack: err.stack ? redact(err.stack) : undefined };
          }
          return out;
        },
      },
    },
    options.destination,
  );
}

/** How log lines are written: one JSON object per line, or a line a person reads. */
export type LogFormat = "json" | "text";

/** The formats `--log-format` and BATON_LOG_FORMAT may name. */
export const logFormats: readonly LogFormat[] = ["json", "text"];

/**
 * The format of the backend's log: the one asked for, else text on a person's terminal and
 * JSON everywhere else (a pipe, a file, a log collector), so a machine never has to read prose
 * and a person never has to read JSON.
 */
export function logFormatFor(asked: LogFormat | undefined, isTTY: boolean | undefined): LogFormat {
  return asked ?? (isTTY ? "text" : "json");
}

/**
 * Where text-format lines go: `time LEVEL message key=value …` on stdout, written at once
 * (as pino's own destination is), coloured on a terminal. Redaction happened before: pino
 * hands this stream the record it would have printed as JSON.
 */
export async function textDestination(colorize: boolean): Promise<DestinationStream> {
  // Loaded only for a person's terminal: JSON output and `baton run` never pay for it.
  const { default: pinoPretty } = await import("pino-pretty");
  return pinoPretty({ sync: true, destination: 1, colorize, singleLine: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname,service" });
}

