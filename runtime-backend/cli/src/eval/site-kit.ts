import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join } from "node:path";
import { Readable } from "node:stream";
import type { RequestHook } from "../run/static-server.js";

/** A request to a fixture app's API, with its body parsed. */
export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  /** Values of the route's `:name` segments. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The JSON body; for a form (multipart or urlencoded), its fields as an object of strings. */
  readonly body: Record<string, unknown>;
  /** The form of a multipart or urlencoded request, with any uploaded files. */
  readonly form?: FormData;
}

/** An API route: its result is sent as JSON (200), undefined as 204. */
export type Route = (req: ApiRequest) => unknown;

/** Answers an API request with a status and `{ "error": message, ...details }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

interface Compiled {
  readonly method: string;
  readonly parts: readonly string[];
  readonly route: Route;
}

function match(c: Compiled, method: string, parts: readonly string[]): Record<string, string> | undefined {
  if (c.method !== method || c.parts.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const want = c.parts[i] as string;
    const got = parts[i] as string;
    if (want.startsWith(":")) params[want.slice(1)] = got;
    else if (want !== got) return undefined;
  }
  return params;
}

async function bodyOf(req: IncomingMessage): Promise<{ body: Record<string, unknown>; form?: FormData }> {
  if (req.method === "GET" || req.method === "HEAD") return { body: {} };
  const type = req.headers["content-type"] ?? "";
  const request = new Request("http://site.invalid/", {
    method: req.method ?? "POST",
    headers: { "content-type": type },
    body: Readable.toWeb(req) as ReadableStream,
    duplex: "half",
  } as RequestInit);
  if (/multipart\/form-data|application\/x-www-form-urlencoded/i.test(type)) {
    const form = await request.formData();
    const body: Record<string, unknown> = {};
    for (const [k, v] of form) if (typeof v === "string") body[k] = v;
    return { body, form };
  }
  const text = await request.text();
  if (!text.trim()) return { body: {} };
  try {
    const json = JSON.parse(text) as unknown;
    return { body: typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : { value: json } };
  } catch {
    throw new HttpError(400, "the body is not valid JSON");
  }
}

function send(res: ServerResponse, status: number, value: unknown): void {
  if (value === undefined) {
    res.writeHead(status === 200 ? 204 : status).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(value));
}

/**
 * A fixture app's server as a table of routes, such as `"POST /api/cart/:id": (r) => …`.
 * Routes answer JSON; a thrown {@link HttpError} answers its status. With `spa`, a GET of a path
 * without a file extension that no route takes serves the site's `index.html`, as single-page
 * apps' servers do for client-side routes.
 */
export function jsonApi(dir: string, routes: Readonly<Record<string, Route>>, o: { spa?: boolean } = {}): RequestHook {
  const table: Compiled[] = Object.entries(routes).map(([key, route]) => {
    const [method, path] = key.split(" ");
    if (!method || !path) throw new Error(`route "${key}" must be "METHOD /path"`);
    return { method, parts: path.split("/").filter(Boolean), route };
  });
  return async (req, res, path) => {
    const method = req.method ?? "GET";
    const parts = path.split("/").filter(Boolean);
    for (const c of table) {
      const params = match(c, method, parts);
      if (!params) continue;
      try {
        const { body, form } = await bodyOf(req);
        const query = new URL(req.url ?? "/", "http://site.invalid").searchParams;
        send(res, 200, await c.route({ method, path, params, query, body, ...(form ? { form } : {}) }));
      } catch (e) {
        if (e instanceof HttpError) send(res, e.status, { ...e.details, error: e.message });
        else throw e;
      }
      return true;
    }
    if (path.startsWith("/api/")) {
      send(res, 404, { error: `no route for ${method} ${path}` });
      return true;
    }
    if (o.spa && method === "GET" && !extname(path)) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(readFileSync(join(dir, "index.html")));
      return true;
    }
    return false;
  };
}
