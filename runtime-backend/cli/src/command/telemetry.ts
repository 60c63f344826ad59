import { traceIds } from "@baton/backend/log";
import { batonVersion } from "@baton/backend";

/** Stops the telemetry a command started, exporting what is left (bounded in time). */
export type StopTelemetry = () => Promise<void>;

/** The longest a command's exit waits for its last spans to be exported. */
const flushMs = 5_000;

/**
 * Whether the environment asks for traces: an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) or a trace exporter (`OTEL_TRACES_EXPORTER`, not `none`),
 * and not `OTEL_SDK_DISABLED=true`.
 */
export function telemetryWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || exporter);
}

/**
 * Starts the OpenTelemetry Node SDK for one `baton` command (serve, run, eval, mcp) when the
 * environment asks for traces ({@link telemetryWanted}); otherwise loads nothing and the spans
 * the loop starts stay the API's no-ops. The SDK reads the standard `OTEL_*` variables itself
 * (exporter, protocol, headers, sampler, batch sizes, `OTEL_SERVICE_NAME`,
 * `OTEL_RESOURCE_ATTRIBUTES`); Baton adds the id generator that gives each session's spans the
 * session's trace id, and leaves out the process resource detector, whose command line would
 * carry a task's text. The SDK's own diagnostics (`OTEL_LOG_LEVEL`) go to `log`, never stdout
 * (it is `baton mcp`'s protocol channel).
 */
export async function startTelemetry(command: string, log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<StopTelemetry> {
  if (!telemetryWanted(env)) return async () => undefined;
  const [{ NodeSDK }, resources, { diag, DiagLogLevel }] = await Promise.all([import("@opentelemetry/sdk-node"), import("@opentelemetry/resources"), import("@opentelemetry/api")]);
  const sdk = new NodeSDK({
    resource: resources.defaultResource().merge(resources.resourceFromAttributes({ "service.name": "baton", "service.version": batonVersion, "baton.command": command })),
    resourceDetectors: [resources.envDetector, resources.hostDetector, resources.osDetector, resources.serviceInstanceIdDetector],
    idGenerator: traceIds,
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  const level = env.OTEL_LOG_LEVEL?.trim().toUpperCase();
  if (level) {
    const write = (...args: unknown[]) => log(`baton ${command}: opentelemetry: ${args.map(String).join(" ")}`);
    diag.setLogger({ error: write, warn: write, info: write, debug: write, verbose: write }, DiagLogLevel[level as keyof typeof DiagLogLevel] ?? DiagLogLevel.INFO);
  }
  sdk.start();
  return async () => {
    await Promise.race([sdk.shutdown().catch(() => undefined), new Promise((r) => setTimeout(r, flushMs).unref())]);
  };
}

/** Runs a command with telemetry started before it and flushed after it, whatever it returns or throws. */
export async function withTelemetry(command: string, log: (line: string) => void, run: () => Promise<number>): Promise<number> {
  const stop = await startTelemetry(command, log);
  try {
    return await run();
  } finally {
    await stop();
  }
}
