/**
 * The world the extension's end-to-end tests run in: the extension built with rollup into
 * `dist/` and loaded unpacked into headless Chromium, a real `baton serve` with its script
 * files in one directory (`BATON_SCRIPT_DIR`), and the fixture shop on 127.0.0.1. The panel is
 * Chrome's real side panel, opened beside the page with `chrome.sidePanel.open` from a real
 * (CDP) click, and driven with the engine itself: real clicks and keys, targets found by role
 * and name in a snapshot of the panel, so the panel's accessibility is tested on the way.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, TypeTextParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { type BackendProcess, startBackendProcess } from "@baton/backend";
import { Engine, engineHandlers } from "@baton/sdk/engine";
import { type LaunchedChromium, launchChromium, WebSocketTransport } from "@baton/sdk/node";
import { findTarget, snapshotRefs } from "@baton/sdk/script";
import { type Shop, startShop } from "./fixture-shop.js";

const extensionDir = join(import.meta.dirname, "..");
/** Where the build writes the unpacked extension. */
export const distDir = join(extensionDir, "dist");
/** Screenshots of the panel at the tests' key moments (git-ignored). */
export const artefactDir = join(extensionDir, ".artefacts");

/** Runs the extension's real build (rollup), as `npm run build -w runtime-extension` does. */
export async function buildExtension(): Promise<void> {
  const rollup = join(extensionDir, "..", "node_modules", ".bin", "rollup");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(rollup, ["-c", "rollup.config.ts", "--configPlugin", "esbuild", "--silent"], { cwd: extensionDir, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the extension build failed (${code}):\n${out.slice(-3000)}`))));
  });
}

/** One entry of the panel's timeline, as the DOM shows it. */
export interface TimelineEntry {
  readonly kind: string;
  readonly state: string;
  readonly tool: string;
  readonly text: string;
  readonly ms: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value (not undefined/false) or `timeoutMs` passes. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}${last ? ` (${String(last)})` : ""}`);
    await sleep(100);
  }
}

/** A page target the tests read or evaluate in. */
export class Target {
  constructor(
    readonly world: World,
    readonly targetId: string,
    readonly sessionId: string,
  ) {}

  /** Evaluates an expression (awaiting promises) and returns its JSON value. */
  async eval<T>(expression: string): Promise<T> {
    const r = await this.world.transport.send<{ result: { value?: unknown }; exceptionDetails?: { exception?: { description?: string }; text: string } }>(
      "Runtime.evaluate",
      { expression, awaitPromise: true, returnByValue: true },
      this.sessionId,
    );
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    return r.result.value as T;
  }

  /** Saves a PNG screenshot under `.artefacts/`; returns its path. */
  async screenshot(name: string): Promise<string> {
    const { data } = await this.world.transport.send<{ data: string }>("Page.captureScreenshot", { format: "png" }, this.sessionId);
    mkdirSync(artefactDir, { recursive: true });
    const path = join(artefactDir, `${name}.png`);
    writeFileSync(path, Buffer.from(data, "base64"));
    return path;
  }

  /** Closes the tab. */
  async close(): Promise<void> {
    await this.world.transport.send("Target.closeTarget", { targetId: this.targetId }).catch(() => undefined);
  }
}

/** A web page in a tab, with its Chrome tab id. */
export class WebTab extends Target {
  constructor(
    world: World,
    targetId: string,
    sessionId: string,
    readonly tabId: number,
  ) {
    super(world, targetId, sessionId);
  }

  /** The page's current URL. */
  url(): Promise<string> {
    return this.eval<string>("location.href");
  }
}

/** The side panel, driven with the engine. */
export class Panel extends Target {
  constructor(
    world: World,
    targetId: string,
    sessionId: string,
    readonly engine: Engine,
    /** The tab it works on. */
    readonly tab: WebTab,
  ) {
    super(world, targetId, sessionId);
  }

  /** Starts recording every kind of timeline entry that appears, however briefly. */
  async record(): Promise<void> {
    await this.eval(`(() => {
      window.__seen = [];
      new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) if (n.dataset?.kind) window.__seen.push(n.dataset.kind); })
        .observe(document.body, { childList: true, subtree: true });
    })()`);
  }

  /** The kinds of entries seen since {@link record}. */
  seen(): Promise<string[]> {
    return this.eval<string[]>("window.__seen ?? []");
  }

  /** The panel as the engine sees it (what a screen reader would get). */
  async snapshot(): Promise<string> {
    return (await this.engine.snapshot({ fresh: true, includeOffscreen: true })).text ?? "";
  }

  async #ref(role: string, name: string): Promise<string> {
    return until(`${role} "${name}" in the panel`, async () => findTarget(snapshotRefs(await this.snapshot()), { role, name }), 10_000);
  }

  /** Clicks a control of the panel, found by role and name. */
  async click(role: string, name: string): Promise<void> {
    const ref = await this.#ref(role, name);
    await engineHandlers(this.engine).click(create(ClickParamsSchema, { ref }), undefined);
  }

  /** Types into a field of the panel, found by role and name. */
  async type(role: string, name: string, text: string, pressEnter = false): Promise<void> {
    const ref = await this.#ref(role, name);
    await engineHandlers(this.engine).typeText(create(TypeTextParamsSchema, { ref, text, pressEnter }), undefined);
  }

  /** Runs a task: types it into the task box and presses Enter. */
  async run(task: string): Promise<void> {
    await this.type("textbox", "Task", task, true);
  }

  /** The timeline's entries. */
  timeline(): Promise<TimelineEntry[]> {
    return this.eval<TimelineEntry[]>(`[...document.querySelectorAll(".timeline > li")].map((li) => ({
      kind: li.dataset.kind ?? "", state: li.dataset.state ?? li.dataset.status ?? "", tool: li.dataset.tool ?? "",
      text: li.innerText.replace(/\\s+/g, " ").trim(), ms: li.dataset.ms ?? "" }))`);
  }

  /** Waits until the timeline has an entry that `match` accepts; returns it. */
  async waitFor(what: string, match: (e: TimelineEntry) => boolean, timeoutMs = 30_000): Promise<TimelineEntry> {
    return until(what, async () => (await this.timeline()).find(match), timeoutMs);
  }

  /** Waits for the run's outcome entry. */
  outcome(timeoutMs = 45_000): Promise<TimelineEntry> {
    return this.waitFor("the run's outcome", (e) => e.kind === "outcome", timeoutMs);
  }

  /** Closes the side panel, as the user does. */
  override async close(): Promise<void> {
    this.engine.page.dispose();
    await this.world.control.eval(`chrome.tabs.get(${this.tab.tabId}).then((t) => chrome.sidePanel.close({ windowId: t.windowId }))`).catch(() => undefined);
    await until("the side panel to close", async () => {
      const { targetInfos } = await this.world.transport.send<{ targetInfos: { targetId: string }[] }>("Target.getTargets");
      return !targetInfos.some((t) => t.targetId === this.targetId);
    });
  }
}

/** Everything a test needs. */
export interface World {
  readonly browser: LaunchedChromium;
  readonly transport: WebSocketTransport;
  readonly extensionId: string;
  readonly shop: Shop;
  readonly backend: BackendProcess;
  readonly token: string;
  readonly scriptDir: string;
  /** An extension page (not the panel) for reading and setting `chrome.*` state. */
  readonly control: Target;
  /** Writes a script file into the backend's script directory; returns the model name for it. */
  script(name: string, script: unknown): string;
  /** Opens a web page in a new tab of its own window. */
  openTab(url: string): Promise<WebTab>;
  /**
   * Opens the side panel in the tab's window (the tab active), as the toolbar button does, and
   * brings that window to the front: Chrome holds the debugger's input events to a tab in a
   * window without focus for up to 5 s each.
   */
  openPanel(tab: WebTab): Promise<Panel>;
  /** Saves the settings as if the user had signed in. */
  signIn(model: string, extra?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

async function attach(transport: WebSocketTransport, targetId: string): Promise<string> {
  const { sessionId } = await transport.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
  await transport.send("Runtime.enable", {}, sessionId);
  await transport.send("Page.enable", {}, sessionId);
  return sessionId;
}

/** Builds the extension and starts the backend, the shop and Chromium with the extension loaded. */
export async function startWorld(): Promise<World> {
  const work = mkdtempSync(join(tmpdir(), "baton-ext-e2e-"));
  const scriptDir = join(work, "scripts");
  mkdirSync(scriptDir);
  const token = "bt_extension_e2e_token_0123456789";
  const [shop, backend] = await Promise.all([
    startShop(),
    startBackendProcess(["--data-dir", join(work, "data"), "--script-dir", scriptDir], { BATON_API_TOKEN: token }, 90_000),
    buildExtension(),
  ]).then(([s, b]) => [s, b] as const);
  const browser = await launchChromium({
    args: [
      `--load-extension=${distDir}`,
      `--disable-extensions-except=${distDir}`,
      "--disable-renderer-backgrounding",
      "--disable-background-timer-throttling",
      "--disable-backgrounding-occluded-windows",
      "--window-size=1280,860",
    ],
  });
  const transport = await WebSocketTransport.connect(browser.wsEndpoint);
  const extensionId = await until("the extension's service worker", async () => {
    const { targetInfos } = await transport.send<{ targetInfos: { type: string; url: string }[] }>("Target.getTargets");
    return targetInfos.find((t) => t.type === "service_worker" && t.url.startsWith("chrome-extension://"))?.url.split("/")[2];
  });
  const world: World = {
    browser,
    transport,
    extensionId,
    shop,
    backend,
    token,
    scriptDir,
    control: undefined as unknown as Target,
    script(name, script) {
      writeFileSync(join(scriptDir, name), JSON.stringify(script, null, 2));
      return `script:${name}`;
    },
    async openTab(url) {
      const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url, newWindow: true, width: 1280, height: 860 });
      const sessionId = await attach(transport, targetId);
      const tabId = await until("the tab's id", () =>
        world.control.eval<number | undefined>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.id === ${JSON.stringify(targetId)})?.tabId)`),
      );
      await until("the page to load", async () => (await transport.send<{ result: { value?: string } }>("Runtime.evaluate", { expression: "document.readyState", returnByValue: true }, sessionId)).result.value === "complete");
      return new WebTab(world, targetId, sessionId, tabId);
    },
    async openPanel(tab) {
      const panelUrl = `chrome-extension://${extensionId}/panel.html`;
      const panels = async () =>
        (await transport.send<{ targetInfos: { targetId: string; url: string }[] }>("Target.getTargets")).targetInfos.filter((t) => t.url === panelUrl).map((t) => t.targetId);
      const before = new Set(await panels());
      await transport.send("Target.activateTarget", { targetId: tab.targetId });
      // chrome.sidePanel.open needs a user gesture: a real click in an extension page gives one.
      await world.control.eval(`(() => {
        document.body.style.minHeight = "200px";
        document.onclick = () => chrome.tabs.get(${tab.tabId}).then((t) => chrome.sidePanel.open({ windowId: t.windowId }));
      })()`);
      for (const type of ["mousePressed", "mouseReleased"]) {
        await transport.send("Input.dispatchMouseEvent", { type, x: 10, y: 10, button: "left", clickCount: 1 }, world.control.sessionId);
      }
      const targetId = await until("the side panel", async () => (await panels()).find((id) => !before.has(id)));
      const engine = await Engine.attach(transport, targetId);
      const panel = new Panel(world, targetId, engine.page.rootId, engine, tab);
      await until("the panel to be ready", () => panel.eval<boolean>(`document.documentElement.dataset.ready === "true"`));
      await transport.send("Target.activateTarget", { targetId: tab.targetId });
      return panel;
    },
    async signIn(model, extra = {}) {
      const settings = { backendUrl: backend.url, token, model, approval: "irreversible", diagnostics: false, ...extra };
      await world.control.eval(`chrome.storage.local.set({ settings: ${JSON.stringify(settings)} })`);
    },
    async close() {
      await transport.close().catch(() => undefined);
      await browser.close();
      await backend.kill();
      await shop.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
  const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: `chrome-extension://${extensionId}/offscreen.html` });
  (world as { control: Target }).control = new Target(world, targetId, await attach(transport, targetId));
  return world;
}
