import { createReadStream, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve, sep } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".txt": "text/plain; charset=utf-8",
};

/** A static file server on a loopback port. */
export interface StaticServer {
  /** "http://127.0.0.1:PORT" */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Answers a request before the files do (an app's API, a compiled script); resolves to true
 * when it answered, false to let the directory serve the path.
 */
export type RequestHook = (req: IncomingMessage, res: ServerResponse, path: string) => boolean | Promise<boolean>;

/** The file of `path` under `root`: undefined when it would leave the directory. */
export function fileUnder(root: string, path: string): string | undefined {
  const file = normalize(join(root, path));
  return file === root || file.startsWith(root + sep) ? file : undefined;
}

/**
 * Sends the file at `path` under `root` (a directory's index.html for a directory): 403 when
 * the path would leave `root`, 404 when there is no such file.
 */
export function sendFile(res: ServerResponse, root: string, path: string): void {
  let file = fileUnder(root, path);
  if (!file) {
    res.writeHead(403).end("forbidden");
    return;
  }
  try {
    if (statSync(file).isDirectory()) file = join(file, "index.html");
    statSync(file);
  } catch {
    res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}`);
    return;
  }
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
  createReadStream(file).pipe(res);
}

/**
 * Serves a directory read-only on 127.0.0.1 (port chosen by the OS), so `baton run --serve DIR`
 * can open local pages: the engine navigates http(s) only, never file: URLs. Paths cannot leave
 * the directory; `/` and directories serve their index.html. `hook` sees every request first
 * (`baton eval`'s fixture sites answer their API there).
 */
export async function serveStatic(dir: string, hook?: RequestHook): Promise<StaticServer> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    } catch {
      res.writeHead(400, { "content-type": "text/plain" }).end("bad path");
      return;
    }
    if (!hook) return sendFile(res, root, path);
    Promise.resolve()
      .then(() => hook(req, res, path))
      .then(
        (answered) => {
          if (!answered) sendFile(res, root, path);
        },
        (e: unknown) => {
          if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
          res.end(`server error: ${e instanceof Error ? e.message : String(e)}`);
        },
      );
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
