/**
 * The built extension in a browser: Chromium with the unpacked extension loaded, its control
 * page, tabs the tests open, and Chrome's real side panel opened beside a tab and driven with the
 * engine itself (real clicks and keys, targets found by role and name in a snapshot of the
 * panel). Shared by the extension's end-to-end tests, its bench and `baton eval --via
 * extension`; it knows nothing of a backend or a fixture site.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, TypeTextParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { Engine, engineHandlers } from "@baton/sdk/engine";
import { type LaunchedChromium, launchChromium, WebSocketTransport } from "@baton/sdk/node";
import { findTarget, snapshotRefs } from "@baton/sdk/script";

const extensionDir = join(import.meta.dirname, "..");
/** Where the build writes the unpacked extension. */
export const distDir = join(extensionDir, "dist");
/** Screenshots of the panel at the tests' key moments (git-ignored). */
export const artefactDir = join(extensionDir, ".artefacts");

/**
 * Runs the extension's real build (rollup), as `npm run build -w runtime-extension` does, into
 * `outDir` (default `dist/`; another folder leaves a `dist/` that a browser has loaded alone).
 */
export async function buildExtension(outDir = distDir): Promise<void> {
  const rollup = join(extensionDir, "..", "node_modules", ".bin", "rollup");
  await new Promise<void>((resolve, reject) => {
    const child = spawn(rollup, ["-c", "rollup.config.ts", "--configPlugin", "esbuild", "--silent"], {
      cwd: extensionDir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, BATON_EXTENSION_OUT: outDir },
    });
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
    readonly world: ExtensionBrowser,
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
    world: ExtensionBrowser,
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
    world: ExtensionBrowser,
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


async function attach(transport: WebSocketTransport, targetId: string): Promise<string> {
  const { sessionId } = await transport.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
  await transport.send("Runtime.enable", {}, sessionId);
  await transport.send("Page.enable", {}, sessionId);
  return sessionId;
}


/** Chromium with the extension loaded, and what drives it. */
export interface ExtensionBrowser {
  readonly browser: LaunchedChromium;
  readonly transport: WebSocketTransport;
  readonly extensionId: string;
  /** An extension page (not the panel) for reading and setting `chrome.*` state. */
  readonly control: Target;
  /** Opens a web page in a new tab of its own window. */
  openTab(url: string): Promise<WebTab>;
  /** A tab already open (one the agent or a page opened), by its Chrome tab id. */
  tab(tabId: number): Promise<WebTab>;
  /**
   * Opens the side panel in the tab's window (the tab active), as the toolbar button does, and
   * brings that window to the front: Chrome holds the debugger's input events to a tab in a
   * window without focus for up to 5 s each.
   */
  openPanel(tab: WebTab): Promise<Panel>;
  /** Saves the panel's settings (backend URL, token, model, approval …), as signing in does. */
  saveSettings(settings: Record<string, unknown>): Promise<void>;
  /** Closes the browser. */
  close(): Promise<void>;
}

/** Options of {@link launchExtensionBrowser}. */
export interface ExtensionBrowserOptions {
  /** The unpacked extension (default `dist/`). */
  readonly dir?: string;
  /** Show the window (needs a display). */
  readonly headed?: boolean;
}

/** Launches Chromium with the built extension loaded and opens its control page. */
export async function launchExtensionBrowser(o: ExtensionBrowserOptions = {}): Promise<ExtensionBrowser> {
  const dir = o.dir ?? distDir;
  const browser = await launchChromium({
    headless: !o.headed,
    args: [
      `--load-extension=${dir}`,
      `--disable-extensions-except=${dir}`,
      "--disable-renderer-backgrounding",
      "--disable-background-timer-throttling",
      "--disable-backgrounding-occluded-windows",
      "--window-size=1280,860",
    ],
  });
  let transport: WebSocketTransport;
  try {
    transport = await WebSocketTransport.connect(browser.wsEndpoint);
  } catch (e) {
    await browser.close();
    throw e;
  }
  try {
    const extensionId = await until("the extension's service worker", async () => {
      const { targetInfos } = await transport.send<{ targetInfos: { type: string; url: string }[] }>("Target.getTargets");
      return targetInfos.find((t) => t.type === "service_worker" && t.url.startsWith("chrome-extension://"))?.url.split("/")[2];
    });
    const eb: ExtensionBrowser = {
      browser,
      transport,
      extensionId,
      control: undefined as unknown as Target,
      async openTab(url) {
        const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url, newWindow: true, width: 1280, height: 860 });
        const sessionId = await attach(transport, targetId);
        const tabId = await until("the tab's id", () =>
          eb.control.eval<number | undefined>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.id === ${JSON.stringify(targetId)})?.tabId)`),
        );
        await until("the page to load", async () => (await transport.send<{ result: { value?: string } }>("Runtime.evaluate", { expression: "document.readyState", returnByValue: true }, sessionId)).result.value === "complete");
        return new WebTab(eb, targetId, sessionId, tabId);
      },
      async tab(tabId) {
        const targetId = await eb.control.eval<string | undefined>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.tabId === ${tabId})?.id)`);
        if (!targetId) throw new Error(`no tab ${tabId}`);
        return new WebTab(eb, targetId, await attach(transport, targetId), tabId);
      },
      async openPanel(tab) {
        const panelUrl = `chrome-extension://${extensionId}/panel.html`;
        const panels = async () =>
          (await transport.send<{ targetInfos: { targetId: string; url: string }[] }>("Target.getTargets")).targetInfos.filter((t) => t.url === panelUrl).map((t) => t.targetId);
        const before = new Set(await panels());
        await transport.send("Target.activateTarget", { targetId: tab.targetId });
        // chrome.sidePanel.open needs a user gesture: a real click in an extension page gives one.
        await eb.control.eval(`(() => {
          document.body.style.minHeight = "200px";
          document.onclick = () => chrome.tabs.get(${tab.tabId}).then((t) => chrome.sidePanel.open({ windowId: t.windowId }));
        })()`);
        for (const type of ["mousePressed", "mouseReleased"]) {
          await transport.send("Input.dispatchMouseEvent", { type, x: 10, y: 10, button: "left", clickCount: 1 }, eb.control.sessionId);
        }
        const targetId = await until("the side panel", async () => (await panels()).find((id) => !before.has(id)));
        const engine = await Engine.attach(transport, targetId);
        const panel = new Panel(eb, targetId, engine.page.rootId, engine, tab);
        await until("the panel to be ready", () => panel.eval<boolean>(`document.documentElement.dataset.ready === "true"`));
        await transport.send("Target.activateTarget", { targetId: tab.targetId });
        return panel;
      },
      async saveSettings(settings) {
        await eb.control.eval(`chrome.storage.local.set({ settings: ${JSON.stringify(settings)} })`);
      },
      async close() {
        await transport.close().catch(() => undefined);
        await browser.close();
      },
    };
    const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: `chrome-extension://${extensionId}/offscreen.html` });
    const control = new Target(eb, targetId, await attach(transport, targetId));
    // The new tab evaluates in its first empty document until the extension page commits.
    await until("the control page", () => control.eval<boolean>(`typeof chrome !== "undefined" && !!chrome.storage?.local && document.readyState === "complete"`));
    (eb as { control: Target }).control = control;
    return eb;
  } catch (e) {
    await transport.close().catch(() => undefined);
    await browser.close();
    throw e;
  }
}
