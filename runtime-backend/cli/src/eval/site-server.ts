import { existsSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { transform } from "esbuild";
import { fileUnder, type RequestHook, sendFile, serveStatic, type StaticServer } from "../run/static-server.js";

/** What a site's server module is given. */
export interface SiteContext {
  /** The site's folder. */
  readonly dir: string;
}

/**
 * The server side of a fixture site: `sites/NAME/server.ts` default-exports one. It is called
 * once per run, so every run starts from the app's initial state; the hook it returns answers
 * the app's own requests (its API) and lets the folder serve the rest.
 */
export type SiteFactory = (ctx: SiteContext) => RequestHook;

const SERVER_FILES = ["server.ts", "server.js", "server.mjs"];

async function siteFactory(dir: string): Promise<SiteFactory | undefined> {
  const file = SERVER_FILES.map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) return undefined;
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  if (typeof mod.default !== "function") throw new Error(`${file} must default-export a function that returns the site's request handler`);
  return mod.default as SiteFactory;
}

const compiled = new Map<string, { mtimeMs: number; js: string }>();

/**
 * Serves `x.js` from `x.ts` when only the TypeScript exists, so fixture apps' browser code is
 * type-checked TypeScript. Types are stripped by esbuild (cached per file and mtime).
 */
async function serveCompiled(root: string, path: string, res: ServerResponse): Promise<boolean> {
  if (!path.endsWith(".js")) return false;
  const js = fileUnder(root, path);
  const ts = js && `${js.slice(0, -3)}.ts`;
  if (!js || !ts || existsSync(js) || !existsSync(ts)) return false;
  const { mtimeMs } = statSync(ts);
  let hit = compiled.get(ts);
  if (hit?.mtimeMs !== mtimeMs) {
    const out = await transform(readFileSync(ts, "utf8"), { loader: "ts", format: "esm", target: "es2022", sourcefile: ts });
    hit = { mtimeMs, js: out.code };
    compiled.set(ts, hit);
  }
  res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" }).end(hit.js);
  return true;
}

/** The path prefix under which every site serves the suite's `sites/_shared/` folder. */
export const sharedPrefix = "/_shared/";

/**
 * Starts one run's copy of a fixture site on a loopback port: a fresh instance of its server
 * module (if it has one), TypeScript served as JavaScript, the folder's files, and the code and
 * styles the suite's sites share (`sites/_shared/`, at `/_shared/`). The server module itself is
 * never served.
 */
export async function startSite(dir: string): Promise<StaticServer> {
  const factory = await siteFactory(dir);
  const app = factory?.({ dir });
  const sites = dirname(dir);
  const hook: RequestHook = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    if (SERVER_FILES.includes(basename(path))) {
      res.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}`);
      return true;
    }
    if (path.startsWith(sharedPrefix)) {
      if (!(await serveCompiled(sites, path, res))) sendFile(res, sites, path);
      return true;
    }
    if (app && (await app(req, res, path))) return true;
    return serveCompiled(dir, path, res);
  };
  return serveStatic(dir, hook);
}
