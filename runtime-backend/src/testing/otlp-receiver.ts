import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import protobuf from "protobufjs";

const protoDir = fileURLToPath(new URL("./otlp-proto/", import.meta.url));

/** An attribute value as OTLP carries it, read back as a plain value. */
export type AttrValue = string | number | boolean | AttrValue[] | undefined;

/** One exported span, decoded. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** "" for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind number (1 internal, 3 client). */
  readonly kind: number;
  readonly startMs: number;
  readonly endMs: number;
  /** OTLP's status code number (0 unset, 1 ok, 2 error). */
  readonly statusCode: number;
  readonly attributes: Readonly<Record<string, AttrValue>>;
  /** The resource attributes of the process that exported it. */
  readonly resource: Readonly<Record<string, AttrValue>>;
}

/** An OTLP/HTTP trace receiver on 127.0.0.1, as a collector would be. */
export interface OtlpReceiver {
  /** Its base URL, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter posts to /v1/traces). */
  readonly url: string;
  /** Every span received so far. */
  spans(): ReceivedSpan[];
  /** Resolves once `pred` holds for the spans received (polling), or rejects after `timeoutMs`. */
  waitFor(pred: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}

function valueOf(v: AnyValue | undefined): AttrValue {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

function attrs(list: { key: string; value?: AnyValue }[] | undefined): Record<string, AttrValue> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));
}

const hex = (b: Uint8Array | undefined) => (b && b.length ? Buffer.from(b).toString("hex") : "");

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  return req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
}

/**
 * Starts a receiver of OTLP/HTTP protobuf trace exports (the exporter's default protocol),
 * decoding each `ExportTraceServiceRequest` with the OpenTelemetry protos in `otlp-proto/`.
 * Anything else (another path, JSON) is answered 415/404 and recorded nowhere.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => `${protoDir}${target}`;
  await root.load("opentelemetry/proto/collector/trace/v1/trace_service.proto", { keepCase: false });
  const request = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
  const response = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse");
  const received: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") return void res.writeHead(404).end();
      if (!String(req.headers["content-type"]).startsWith("application/x-protobuf")) return void res.writeHead(415).end();
      const decoded = request.toObject(request.decode(await body(req)), { longs: String, defaults: false }) as {
        resourceSpans?: { resource?: { attributes?: { key: string; value?: AnyValue }[] }; scopeSpans?: { spans?: Record<string, unknown>[] }[] }[];
      };
      for (const rs of decoded.resourceSpans ?? []) {
        const resource = attrs(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            received.push({
              traceId: hex(s.traceId as Uint8Array),
              spanId: hex(s.spanId as Uint8Array),
              parentSpanId: hex(s.parentSpanId as Uint8Array | undefined),
              name: String(s.name),
              kind: Number(s.kind ?? 0),
              startMs: Number(BigInt(String(s.startTimeUnixNano ?? 0)) / 1_000_000n),
              endMs: Number(BigInt(String(s.endTimeUnixNano ?? 0)) / 1_000_000n),
              statusCode: Number((s.status as { code?: number } | undefined)?.code ?? 0),
              attributes: attrs(s.attributes as { key: string; value?: AnyValue }[]),
              resource,
            });
          }
        }
      }
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end(Buffer.from(response.encode(response.create({})).finish()));
    })().catch((e) => res.writeHead(400).end(String(e)));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    async waitFor(pred, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        if (pred(received)) return [...received];
        if (Date.now() > until) throw new Error(`the spans received never met the condition (${received.length} span(s): ${received.map((s) => s.name).join(", ")})`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
