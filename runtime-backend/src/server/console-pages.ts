import type http from "node:http";
import type http2 from "node:http2";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { packageDir } from "../base/package-dir.js";

/** One file of the console, kept in memory with its compressed forms. */
interface Asset {
  readonly type: string;
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly br: Buffer;
  /** Hashed names never change: cached for a year; the page itself is revalidated. */
  readonly immutable: boolean;
}

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** The console's routes that are the single page (the page's own router shows the right view). */
const pagePaths = /^\/(?:|sign-in|sessions(?:\/[\w-]{1,64})?|playbooks(?:\/[\w.-]{1,100})?|memory|usage|trust|devices|users|link\/[\w-]{1,64})$/;

/**
 * The console's page is the whole defence against being framed (clickjacking the approval of a
 * device link) and against injected script: nothing but its own files runs or is fetched.
 */
const securityHeaders: Record<string, string> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/** Reads a built console directory (index.html and its assets) into memory, compressed once. */
export function loadConsoleAssets(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  const walk = (d: string, prefix: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else {
        const type = types[extname(name)];
        if (!type) continue;
        const body = readFileSync(path);
        out.set(`/${prefix}${name}`, { type, body, gzip: gzipSync(body, { level: 9 }), br: brotliCompressSync(body), immutable: prefix.startsWith("assets/") });
      }
    }
  };
  walk(dir, "");
  return out;
}

/**
 * Serves the web console: GET and HEAD of its pages (all answered with index.html) and of its
 * assets, brotli or gzip as the browser accepts. Returns false for anything else (the RPCs).
 */
export function consolePages(assets: Map<string, Asset>): (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => boolean {
  const index = assets.get("/index.html");
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const asset = pagePaths.test(path) ? index : path.startsWith("/assets/") ? assets.get(path) : undefined;
    if (!asset) return false;
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const [body, encoding] = /\bbr\b/.test(accepted) ? [asset.br, "br"] : /\bgzip\b/.test(accepted) ? [asset.gzip, "gzip"] : [asset.body, undefined];
    res.statusCode = 200;
    for (const [k, v] of Object.entries(securityHeaders)) res.setHeader(k, v);
    res.setHeader("content-type", asset.type);
    res.setHeader("cache-control", asset.immutable ? "public, max-age=31536000, immutable" : "no-cache");
    res.setHeader("vary", "accept-encoding");
    if (encoding) res.setHeader("content-encoding", encoding);
    res.setHeader("content-length", String(body.byteLength));
    if (req.method === "HEAD") res.end();
    else res.end(body);
    return true;
  };
}

/** The console's build is not where the package puts it (an incomplete install). */
export class ConsoleBuildMissing extends Error {
  override readonly name = "ConsoleBuildMissing";

  constructor(readonly dir: string) {
    super(`the web console's build is missing (${dir}): the package is incomplete; reinstall @baton/backend`);
  }
}

/** Where the built console is: `console/dist` below the package, in a clone and installed alike. */
export function consoleDistDir(): string {
  return join(packageDir(import.meta.dirname), "console", "dist");
}

/**
 * The built console, built first when this is a clone whose console sources are newer than
 * the build (rollup is a development dependency: a packaged backend ships the build).
 */
export async function consoleBuild(dir = consoleDistDir()): Promise<Map<string, Asset>> {
  const sources = resolve(dir, "../src");
  if (existsSync(sources)) {
    const { buildConsoleIfStale } = await import("../../console/build.js");
    await buildConsoleIfStale(dir);
  }
  if (!existsSync(join(dir, "index.html"))) throw new ConsoleBuildMissing(dir);
  return loadConsoleAssets(dir);
}
