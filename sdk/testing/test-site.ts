/**
 * A small web site on a loopback address for the URL-policy tests: HTML (or any answer) per
 * path, a WebSocket endpoint on every path, and a record of what reached it. A site on another
 * port plays a hostile site; one on 127.0.0.2 plays a network neighbour.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";

/** A path's answer: an HTML body, or a function that answers the request itself. */
export type Route = string | ((req: IncomingMessage, res: ServerResponse, site: TestSite) => void);

/** A running test site. */
export interface TestSite {
  /** "http://HOST:PORT" */
  readonly origin: string;
  readonly port: number;
  /** Every HTTP request that arrived: "Host-header path". */
  readonly requests: string[];
  /** Every WebSocket that connected: "Host-header path", then each message as "path: text". */
  readonly sockets: string[];
  close(): Promise<void>;
}

/** Starts a site on `host` (default 127.0.0.1) at a free port. */
export async function startTestSite(routes: Record<string, Route>, host = "127.0.0.1"): Promise<TestSite> {
  const requests: string[] = [];
  const sockets: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    requests.push(`${req.headers.host ?? ""} ${path}`);
    const route = routes[path];
    if (typeof route === "function") return route(req, res, site);
    if (route === undefined) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(route);
  });
  const wss = new WebSocketServer({ server });
  wss.on("connection", (socket, req) => {
    const path = req.url ?? "/";
    sockets.push(`${req.headers.host ?? ""} ${path}`);
    socket.on("message", (m) => sockets.push(`${path}: ${String(m)}`));
  });
  await new Promise<void>((ready, fail) => server.once("error", fail).listen(0, host, ready));
  const port = (server.address() as AddressInfo).port;
  const site: TestSite = {
    origin: `http://${host}:${port}`,
    port,
    requests,
    sockets,
    async close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return site;
}
