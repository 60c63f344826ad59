/**
 * Shared pieces of the end-to-end tests: a headless Chromium (site-per-process, so the second
 * origin's frames are out of process), engine pages in it, and a backend serving a script model
 * over real HTTP.
 */
import { access } from "node:fs/promises";
import { createBatonClient, type BatonClient, type RunContext } from "@baton/sdk/client";
import { type Engine, engineHandlers } from "@baton/sdk/engine";
import { launchChromium, type LaunchedChromium, openPage, type OpenPageOptions, WebSocketTransport } from "@baton/sdk/node";
import { engineProbe } from "@baton/sdk/script";
import type { ClientToolHandlers } from "@baton/gen/baton/v1/tools_baton";
import { ScriptProvider, type ScriptSource } from "../providers/script.js";
import { bearerAuth } from "../server/auth.js";
import { agentRoutes } from "../server/routes.js";
import { serve } from "../server/serve.js";
import { createToken } from "../store/users.js";
import type { Provider } from "../providers/types.js";
import type { Db } from "../store/db.js";
import { providerAgent, type RecordingProvider } from "../testing/harness.js";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type Site, startSite } from "./fixtures/site.js";

/** A browser for a test file. */
export interface Browser {
  readonly transport: WebSocketTransport;
  /** A fresh page (closed by `close`); `options` add to the rig's engine options. */
  page(options?: OpenPageOptions): Promise<Engine>;
  close(): Promise<void>;
}

/** Launches headless Chromium; every page it opens is closed with it. */
export async function startBrowser(): Promise<Browser> {
  const chromium: LaunchedChromium = await launchChromium({ args: ["--site-per-process"] });
  const transport = await WebSocketTransport.connect(chromium.wsEndpoint);
  return {
    transport,
    page: (options = {}) =>
      openPage(transport, {
        viewport: { width: 1000, height: 700 },
        fileExists: (p) => access(p).then(() => true, () => false),
        ...options,
      }),
    async close() {
      await transport.close().catch(() => undefined);
      await chromium.close();
    },
  };
}

/** The engine's handlers plus an ask_user that answers a fixed text. */
export function browserHandlers(engine: Engine, answer = "I am not available."): ClientToolHandlers<RunContext> {
  return { ...engineHandlers<RunContext>(engine), askUser: async () => ({ answer }) };
}

/** A backend over HTTP with a script model, and a client for the user "alice". */
export interface ScriptBackend {
  readonly url: string;
  readonly client: BatonClient;
  readonly model: RecordingProvider;
  /** The backend's store, for what no RPC shows (memory's provenance, say). */
  readonly db: Db;
  close(): Promise<void>;
}

/** Serves an agent whose model plays `script` (default approval policy: irreversible calls wait). */
export function startScriptBackend(script: ScriptSource): Promise<ScriptBackend> {
  return startModelBackend(new ScriptProvider(script));
}

/** Serves an agent whose every model is `provider` (a real SDK against a fake server, say). */
export async function startModelBackend(provider: Provider): Promise<ScriptBackend> {
  const { agent, db, model, close } = await providerAgent(provider);
  const token = await createToken(db, "alice");
  const server = await serve({ routes: agentRoutes(agent, bearerAuth(db)) });
  return {
    url: server.url,
    client: createBatonClient({ baseUrl: server.url, token }),
    model,
    db,
    close: async () => {
      await server.close();
      await close();
    },
  };
}

/** Evaluates an expression in the engine's current page. */
export async function evaluate<T>(engine: Engine, expression: string): Promise<T> {
  return (await engineProbe(engine).evaluate(expression)) as T;
}

function isProvider(m: ScriptSource | Provider): m is Provider {
  return typeof m === "object" && "generate" in m;
}

/** What `useBrowserRig` gives a test file: the site, the browser, and per-test setup. */
export interface BrowserRig {
  readonly site: Site;
  readonly browser: Browser;
  /** A backend (a script model, or any provider) and a fresh page, both closed after the test. */
  setup(model: ScriptSource | Provider, pageOptions?: OpenPageOptions): Promise<{ backend: ScriptBackend; engine: Engine }>;
}

/**
 * Registers a test file's lifecycle: the fixture site and a browser for the whole file, and
 * after each test the pages and backends it set up are closed. Read the fields inside tests.
 */
export function useBrowserRig(): BrowserRig {
  let site: Site | undefined;
  let browser: Browser | undefined;
  const open: { engine: Engine; backend: ScriptBackend }[] = [];
  beforeAll(async () => {
    site = await startSite();
    browser = await startBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await browser?.transport.send("Target.closeTarget", { targetId: o.engine.page.targetId }).catch(() => undefined);
      o.engine.dispose();
      await o.backend.close();
    }
  });
  const rig: BrowserRig = {
    get site() {
      if (!site) throw new Error("the rig's site is read before beforeAll ran");
      return site;
    },
    get browser() {
      if (!browser) throw new Error("the rig's browser is read before beforeAll ran");
      return browser;
    },
    async setup(model, pageOptions) {
      const backend = await (isProvider(model) ? startModelBackend(model) : startScriptBackend(model));
      const engine = await rig.browser.page(pageOptions);
      open.push({ engine, backend });
      return { backend, engine };
    },
  };
  return rig;
}
