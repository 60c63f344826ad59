import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { type ConnectRouter, createConnectRouter, createContextValues } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { type HostGuard, hostGuard, type HostPolicy } from "./allowed-hosts.js";
import { serverCompressions } from "./compression.js";
import { applyCors, type CorsOptions } from "./cors.js";
import { guardedRoutes } from "./edge.js";
import { clientAddress, ClientRateLimiter, type RateLimit } from "./rate-limit.js";
import { maxRequestBytes } from "./validate.js";

/** A running server. */
export interface RunningServer {
  /** "http://127.0.0.1:PORT". */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  readonly routes: (router: ConnectRouter) => void;
  readonly port?: number;
  readonly host?: string;
  readonly cors?: CorsOptions;
  /**
   * Largest request message accepted, in bytes, for a method whose proto sets no
   * `(baton.v1.method).max_request_bytes` (1 MiB).
   */
  readonly readMaxBytes?: number;
  /** Calls each client address may make to the methods anyone may call (`rate-limit.ts`); none when false. */
  readonly anonymousLimit?: RateLimit | false;
  /** Host names answered beyond the listen address and loopback names (`allowed-hosts.ts`). */
  readonly hosts?: Pick<HostPolicy, "publicUrl" | "allowed">;
  /** Answers the requests that are pages, not RPCs (the web console); returns true when it did. */
  readonly pages?: (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => boolean;
}

const h2Preface = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * Serves the routes over HTTP/1.1 and cleartext HTTP/2 (h2c, prior knowledge) on one port:
 * the first bytes of each connection pick the protocol. Browsers and the extension use
 * HTTP/1.1 (with CORS); server-to-server clients and benchmarks can use h2c.
 */
export async function serve(o: ServeOptions): Promise<RunningServer> {
  // Each method's own limit comes from its proto; Connect's reader is set to the largest of them.
  const readMaxBytes = o.readMaxBytes ?? 1024 * 1024;
  const anonymousLimit = o.anonymousLimit ? new ClientRateLimiter(o.anonymousLimit) : undefined;
  const adapter = { readMaxBytes, acceptCompression: [...serverCompressions], compressMinBytes: 1024 };
  const served = createConnectRouter();
  o.routes(served);
  const connect = connectNodeAdapter({
    routes: guardedRoutes(o.routes, { ...adapter, anonymousLimit }),
    ...adapter,
    contextValues: (req) => createContextValues().set(clientAddress, req.socket.remoteAddress ?? ""),
    readMaxBytes: Math.max(readMaxBytes, ...served.handlers.map((h) => maxRequestBytes(h.method, readMaxBytes))),
  });
  let hosts: HostGuard | undefined;
  const handler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => {
    if (req.url === "/healthz") {
      res.statusCode = 200;
      res.end("ok");
      return;
    }
    // Pages, assets and RPCs alike: a request for another name may be a page of that name after DNS rebinding.
    const authority = req.headers.host ?? req.headers[":authority"];
    const misdirected = hosts?.refuseHost(typeof authority === "string" ? authority : undefined);
    if (misdirected) {
      res.statusCode = 421;
      res.setHeader("content-type", "text/plain; charset=utf-8");
      res.setHeader("x-content-type-options", "nosniff");
      res.end(`Misdirected Request: ${misdirected}\n`);
      return;
    }
    if (o.pages?.(req, res)) return;
    if (applyCors(req, res, o.cors ?? {})) return;
    connect(req as never, res as never);
  };
  const h1 = http.createServer(handler);
  h1.keepAliveTimeout = 65_000;
  const h2 = http2.createServer(handler);
  const sockets = new Set<net.Socket>();
  // TCP_NODELAY here: this server accepts the sockets, so Node's HTTP server never sets it on
  // them, and with Nagle on, each streamed step's later messages waited for the client's
  // delayed ACK (server.test.ts).
  const front = net.createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.once("readable", () => {
      const head: Buffer | null = socket.read(Math.min(h2Preface.length, socket.readableLength)) ?? socket.read();
      if (head) socket.unshift(head);
      const isH2 = head !== null && h2Preface.subarray(0, head.length).equals(head.subarray(0, h2Preface.length));
      (isH2 ? h2 : h1).emit("connection", socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    front.once("error", reject);
    front.listen(o.port ?? 0, o.host ?? "127.0.0.1", () => resolve());
  });
  const addr = front.address() as net.AddressInfo;
  hosts = hostGuard({ listenHost: o.host ?? "127.0.0.1", port: addr.port, ...o.hosts });
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    port: addr.port,
    close: () =>
      new Promise<void>((resolve) => {
        front.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
