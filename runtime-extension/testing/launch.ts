/**
 * Drives the built extension from Node (`@baton/extension/testing`): launches Chromium with
 * `runtime-extension/dist/` loaded unpacked, opens pages in tabs and Chrome's real side panel
 * beside them, and works the panel as a user does (real clicks and keys, found by role and name
 * in the engine's snapshot of the panel). The extension's end-to-end tests, its benchmark and
 * the eval harness's `--via extension` all go through it. It knows nothing of the backend: give
 * it a backend's URL and token.
 *
 * ```ts
 * const ext = await launchWithExtension();          // builds dist/ first unless told not to
 * await ext.configure({ backendUrl, token, model: "script:checkout.json" });
 * const run = await runInPanel(ext, { startUrl, task: "Buy a blue mug", onApproval: () => true });
 * run.outcome;  // { state: "completed", text: "…" }; run.sessionId is the backend's session
 * await run.end(); await ext.close();
 * ```
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { ClickParamsSchema, TypeTextParamsSchema } from "@baton/gen/baton/v1/tools_pb";
import { Engine, engineHandlers } from "@baton/sdk/engine";
import { type LaunchedChromium, launchChromium, WebSocketTransport } from "@baton/sdk/node";
import { findTarget, snapshotRefs } from "@baton/sdk/script";
import { uploadFolderKey } from "../src/run/upload-paths.js";

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
  /** task, thinking, text, step, approval, question, notice, paused, outcome. */
  readonly kind: string;
  /** A step's running/done/failed/replayed, a card's pending/approved/denied, an outcome's completed/failed/stopped. */
  readonly state: string;
  /** A step's tool (snake_case, as the model calls it). */
  readonly tool: string;
  /** What the entry says, whitespace collapsed. */
  readonly text: string;
  /** A step's duration in ms, as text; empty while it runs. */
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

/** A page target (a web page, the panel, an extension page) to read or evaluate in. */
export class Target {
  constructor(
    readonly ext: ExtensionBrowser,
    readonly targetId: string,
    readonly sessionId: string,
  ) {}

  /** Evaluates an expression (awaiting promises) and returns its JSON value. */
  async eval<T>(expression: string): Promise<T> {
    const r = await this.ext.transport.send<{ result: { value?: unknown }; exceptionDetails?: { exception?: { description?: string }; text: string } }>(
      "Runtime.evaluate",
      { expression, awaitPromise: true, returnByValue: true },
      this.sessionId,
    );
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    return r.result.value as T;
  }

  /** Saves a PNG screenshot under `dir` (`.artefacts/` by default); returns its path. */
  async screenshot(name: string, dir = artefactDir): Promise<string> {
    const { data } = await this.ext.transport.send<{ data: string }>("Page.captureScreenshot", { format: "png" }, this.sessionId);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${name}.png`);
    writeFileSync(path, Buffer.from(data, "base64"));
    return path;
  }

  /** Closes the tab. */
  async close(): Promise<void> {
    await this.ext.transport.send("Target.closeTarget", { targetId: this.targetId }).catch(() => undefined);
  }
}

/** A web page in a tab, with its Chrome tab id. */
export class WebTab extends Target {
  constructor(
    ext: ExtensionBrowser,
    targetId: string,
    sessionId: string,
    readonly tabId: number,
  ) {
    super(ext, targetId, sessionId);
  }

  /** Loads `url` in the tab, as typing it in the address bar does, and waits for it to load. */
  async navigate(url: string): Promise<void> {
    await this.#loaded(url, this.ext.transport.send<{ errorText?: string }>("Page.navigate", { url }, this.sessionId));
  }

  /** Waits for a navigation to `url` (Page.navigate's answer) to commit and its page to load. */
  async #loaded(url: string, navigated: Promise<{ errorText?: string }>): Promise<void> {
    const { errorText } = await navigated;
    if (errorText) throw new Error(`${url} did not load: ${errorText}`);
    await until(`${url} to load`, async () => (await this.eval<string>("location.href")) !== "about:blank" && (await this.eval<string>("document.readyState")) === "complete");
  }

  /**
   * Starts loading `url` with its document request held back (the Fetch domain, on the test's
   * own session), so the tab is loading it and nothing of the page has been fetched yet; the
   * returned function lets the request go and waits for the page to load.
   */
  async holdNavigation(url: string): Promise<() => Promise<void>> {
    const paused = new Promise<string>((resolve) => {
      const off = this.ext.transport.onEvent((e) => {
        if (e.method === "Fetch.requestPaused" && e.sessionId === this.sessionId) {
          off();
          resolve(String(e.params.requestId));
        }
      });
    });
    await this.ext.transport.send("Fetch.enable", { patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }] }, this.sessionId);
    const navigated = this.ext.transport.send<{ errorText?: string }>("Page.navigate", { url }, this.sessionId);
    const requestId = await paused;
    return async () => {
      await this.ext.transport.send("Fetch.continueRequest", { requestId }, this.sessionId);
      await this.ext.transport.send("Fetch.disable", {}, this.sessionId);
      await this.#loaded(url, navigated);
    };
  }

  /** The page's current URL. */
  url(): Promise<string> {
    return this.eval<string>("location.href");
  }
}

/** Chrome's side panel with Baton in it, driven with the engine. */
export class Panel extends Target {
  constructor(
    ext: ExtensionBrowser,
    targetId: string,
    sessionId: string,
    readonly engine: Engine,
    /** The tab it works on. */
    readonly tab: WebTab,
  ) {
    super(ext, targetId, sessionId);
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

  /** Opens Settings, runs `fill` there, and goes back to the task, as a person does between tasks. */
  async #inSettings(fill: () => Promise<void>): Promise<void> {
    await this.click("button", "Settings");
    await fill();
    await this.click("button", "Back to the task");
  }

  /** Waits until the Settings form `selector` says `text` (its message after a save); fails with what it says instead. */
  async #saved(selector: string, text: string): Promise<void> {
    let said = "";
    await until(`"${text}" in ${selector}`, async () => (said = await this.eval<string>(`document.querySelector(${JSON.stringify(selector)})?.innerText ?? ""`)).includes(text), 10_000).catch(() => {
      throw new Error(`the panel did not save (${selector} says: ${said.replace(/\s+/g, " ").slice(-300)})`);
    });
  }

  /**
   * Sets the site policy in Settings as a person does: each list typed into its box, one origin
   * or host a line (an empty list clears its box), then "Save site policy".
   */
  async setSitePolicy(p: SitePolicyLists): Promise<void> {
    await this.#inSettings(async () => {
      const boxes: [string, readonly string[] | undefined][] = [
        ["Allowed sites", p.allowed],
        ["Blocked sites", p.blocked],
        ["Read-only sites", p.readOnly],
      ];
      for (const [label, list] of boxes) await this.type("textbox", label, (list ?? []).join("\n"));
      await this.click("button", "Save site policy");
      await this.#saved(".site-policy", "Saved.");
    });
  }

  /** Adds a secret in Settings' Secrets as a person does (a one-time code: its authenticator key); it replaces one of that name. */
  async addSecret(s: PanelSecret): Promise<void> {
    await this.#inSettings(async () => {
      if (s.totp) await this.click("radio", "One-time code");
      await this.type("textbox", "Name", s.name);
      await this.type("textbox", s.totp ? "Authenticator key" : "Value", s.value);
      if (s.origins?.length) await this.type("textbox", "Allowed origins", s.origins.join(" "));
      await this.click("button", s.totp ? "Add one-time code" : "Add secret");
      await this.#saved(".secrets", `Saved ${s.name}.`);
    });
  }

  /** Deletes a secret from Settings' Secrets, as a person does. */
  async deleteSecret(name: string): Promise<void> {
    await this.#inSettings(async () => {
      await this.click("button", `Delete ${name}`);
      await until(`the secret ${name} to go`, async () => !(await this.snapshot()).includes(`"Delete ${name}"`), 10_000);
    });
  }

  /** Closes the side panel, as the user does. */
  override async close(): Promise<void> {
    this.engine.page.dispose();
    await this.ext.control.eval(`chrome.tabs.get(${this.tab.tabId}).then((t) => chrome.sidePanel.close({ windowId: t.windowId }))`).catch(() => undefined);
    await until("the side panel to close", async () => {
      const { targetInfos } = await this.ext.transport.send<{ targetInfos: { targetId: string }[] }>("Target.getTargets");
      return !targetInfos.some((t) => t.targetId === this.targetId);
    });
  }
}

/** A site policy's lists, as Settings' "Site policy" boxes take them (origins or hosts). */
export interface SitePolicyLists {
  readonly allowed?: readonly string[];
  readonly blocked?: readonly string[];
  readonly readOnly?: readonly string[];
}

/** A secret as Settings' Secrets section takes it. */
export interface PanelSecret {
  readonly name: string;
  /** The value, or for a one-time code the authenticator key (TOTP seed). */
  readonly value: string;
  readonly totp?: boolean;
  /** Where it may be typed; unset: any site. */
  readonly origins?: readonly string[];
}

/** The panel's settings (`src/settings.ts`), as {@link ExtensionBrowser.configure} writes them. */
export interface PanelSettings {
  /** The backend's URL; empty for the standalone mode (the agent in the panel, with `modelKey`). */
  readonly backendUrl: string;
  readonly token: string;
  /** "provider:model"; empty for the backend's default. */
  readonly model?: string;
  /** Standalone mode: the user's own API key for the model's provider. */
  readonly modelKey?: string;
  /** Standalone mode: the provider's base URL (an OpenAI-compatible server), when not its own. */
  readonly modelBaseUrl?: string;
  /** Most steps a new task may take; 0 or unset for the backend's default. */
  readonly maxSteps?: number;
  /** Ask before what can't be undone (the default), or before every change to a page. */
  readonly approval?: "irreversible" | "every-change";
  /** The budget per task (tokens, US dollars, seconds; 0: no ceiling on it); unset: none. */
  readonly budget?: { readonly tokens: number; readonly costUsd: number; readonly seconds: number };
  readonly diagnostics?: boolean;
}

/** Chromium with the extension loaded, and what it takes to drive it. */
export interface ExtensionBrowser {
  readonly browser: LaunchedChromium;
  /** The test's own CDP connection to the browser (not the extension's). */
  readonly transport: WebSocketTransport;
  readonly extensionId: string;
  /** An extension page (not the panel) for reading and setting `chrome.*` state. */
  readonly control: Target;
  /** Opens a web page in a new tab of its own window. */
  openTab(url: string): Promise<WebTab>;
  /**
   * Opens the side panel in the tab's window (the tab active), as the toolbar button does, and
   * brings that window to the front: Chrome holds the debugger's input events to a tab in a
   * window without focus for up to 5 s each.
   */
  openPanel(tab: WebTab): Promise<Panel>;
  /** Saves the panel's settings, as if the user had signed in. */
  configure(settings: PanelSettings): Promise<void>;
  /** Sets the folders uploads may come from without asking (the key `src/run/upload-paths.ts` reads). */
  setUploadFolders(folders: readonly string[]): Promise<void>;
  /** The sessions the panel ran, newest first (ids from the backend). */
  pastSessions(): Promise<string[]>;
  close(): Promise<void>;
}

/** Options of {@link launchWithExtension}. */
export interface LaunchOptions {
  /** Run the rollup build first (default true); false loads whatever `dir` holds. */
  readonly build?: boolean;
  /** The unpacked extension: where the build writes and what Chromium loads (default `dist/`). */
  readonly dir?: string;
  /** Show the browser (needs a display). */
  readonly headed?: boolean;
  /** Other unpacked extensions to load beside Baton (a test's rival debugger, say). */
  readonly alsoLoad?: readonly string[];
}

async function attach(transport: WebSocketTransport, targetId: string): Promise<string> {
  const { sessionId } = await transport.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
  await transport.send("Runtime.enable", {}, sessionId);
  await transport.send("Page.enable", {}, sessionId);
  return sessionId;
}

/** Launches Chromium (headless unless told) with the built extension loaded unpacked. */
export async function launchWithExtension(o: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const dir = o.dir ?? distDir;
  if (o.build !== false) await buildExtension(dir);
  const load = [dir, ...(o.alsoLoad ?? [])].join(",");
  const browser = await launchChromium({
    headless: !o.headed,
    args: [
      `--load-extension=${load}`,
      `--disable-extensions-except=${load}`,
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
  const extensionId = await until("the extension's service worker", async () => {
    const { targetInfos } = await transport.send<{ targetInfos: { type: string; url: string }[] }>("Target.getTargets");
    return targetInfos.find((t) => t.type === "service_worker" && t.url.startsWith("chrome-extension://") && t.url.endsWith("/service-worker.js"))?.url.split("/")[2];
  });
  const ext: ExtensionBrowser = {
    browser,
    transport,
    extensionId,
    control: undefined as unknown as Target,
    async openTab(url) {
      const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url, newWindow: true, width: 1280, height: 860 });
      const sessionId = await attach(transport, targetId);
      const tabId = await until("the tab's id", () =>
        ext.control.eval<number | undefined>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.id === ${JSON.stringify(targetId)})?.tabId)`),
      );
      await until("the page to load", async () => (await transport.send<{ result: { value?: string } }>("Runtime.evaluate", { expression: "document.readyState", returnByValue: true }, sessionId)).result.value === "complete");
      return new WebTab(ext, targetId, sessionId, tabId);
    },
    async openPanel(tab) {
      const panelUrl = `chrome-extension://${extensionId}/panel.html`;
      const panels = async () =>
        (await transport.send<{ targetInfos: { targetId: string; url: string }[] }>("Target.getTargets")).targetInfos.filter((t) => t.url === panelUrl).map((t) => t.targetId);
      const before = new Set(await panels());
      await transport.send("Target.activateTarget", { targetId: tab.targetId });
      // chrome.sidePanel.open needs a user gesture: a real click in an extension page gives one.
      await ext.control.eval(`(() => {
        document.body.style.minHeight = "200px";
        document.onclick = () => chrome.tabs.get(${tab.tabId}).then((t) => chrome.sidePanel.open({ windowId: t.windowId }));
      })()`);
      for (const type of ["mousePressed", "mouseReleased"]) {
        await transport.send("Input.dispatchMouseEvent", { type, x: 10, y: 10, button: "left", clickCount: 1 }, ext.control.sessionId);
      }
      const targetId = await until("the side panel", async () => (await panels()).find((id) => !before.has(id)));
      const engine = await Engine.attach(transport, targetId);
      const panel = new Panel(ext, targetId, engine.page.rootId, engine, tab);
      await until("the panel to be ready", () => panel.eval<boolean>(`document.documentElement.dataset.ready === "true"`));
      await transport.send("Target.activateTarget", { targetId: tab.targetId });
      return panel;
    },
    async configure(s) {
      const settings = { model: "", modelKey: "", modelBaseUrl: "", maxSteps: 0, approval: "irreversible", diagnostics: false, ...s };
      await ext.control.eval(`chrome.storage.local.set({ settings: ${JSON.stringify(settings)} })`);
    },
    async setUploadFolders(folders) {
      await ext.control.eval(`chrome.storage.local.set({ ${JSON.stringify(uploadFolderKey)}: ${JSON.stringify(folders)} })`);
    },
    async pastSessions() {
      const got = await ext.control.eval<{ sessions?: { sessionId: string }[] }>(`chrome.storage.local.get("sessions")`);
      return (got.sessions ?? []).map((s) => s.sessionId);
    },
    async close() {
      await transport.close().catch(() => undefined);
      await browser.close();
    },
  };
  try {
    const { targetId } = await transport.send<{ targetId: string }>("Target.createTarget", { url: `chrome-extension://${extensionId}/offscreen.html` });
    const control = new Target(ext, targetId, await attach(transport, targetId));
    // The new tab evaluates in its first empty document until the extension page commits.
    await until("the control page", () => control.eval<boolean>(`typeof chrome !== "undefined" && !!chrome.storage?.local && document.readyState === "complete"`));
    (ext as { control: Target }).control = control;
  } catch (e) {
    await ext.close();
    throw e;
  }
  return ext;
}

/** A card the panel holds a call on, as {@link runInPanel} hands it to `onApproval`. */
export interface PanelApproval {
  /** What the card says: the call in words, the page, and why it asks. */
  readonly text: string;
}

/**
 * How a card is answered: approve (true) or deny (false) this call, or "always" / "never" for
 * every call of its class on its site (the card's "Always on this site" / "Never on this site",
 * kept for the card's default time).
 */
export type PanelAnswer = boolean | "always" | "never";

/** The card's button for an answer. */
const answerButton = (a: PanelAnswer): string => (a === "always" ? "Always on this site" : a === "never" ? "Never on this site" : a ? "Approve" : "Deny");

/** Options of {@link runInPanel}. */
export interface PanelTask {
  /** The page the task starts on (opened in a new tab of its own window). */
  readonly startUrl: string;
  readonly task: string;
  /** The answer to a held call ({@link PanelAnswer}); unset: deny. */
  readonly onApproval?: (a: PanelApproval) => PanelAnswer | Promise<PanelAnswer>;
  /**
   * Runs once the panel is open, before the start page loads (the tab is on about:blank until
   * it ends) and the task is typed: set up Settings as a person would, so that the page loads
   * under them (a blocked frame is never fetched).
   */
  readonly prepare?: (panel: Panel) => Promise<void>;
  /**
   * With `prepare`: the start page begins to load before the task starts, its document request
   * held back until the extension holds the tab to the site policy in the network (a session
   * rule names the tab), so that not even the page's first frame goes out unheld; the task
   * starts once its tab has loaded. The policy set in `prepare` must limit loading (allowed or
   * blocked sites), or there is no rule to wait for.
   */
  readonly startWhenHeld?: boolean;
  /** The answer to `ask_user` (a choice's name, or free text); unset: the question stays open until the time limit. */
  readonly userReply?: string;
  /** Presses Stop when aborted. */
  readonly signal?: AbortSignal;
  /** How long to wait for the outcome (default 5 minutes). */
  readonly timeoutMs?: number;
}

/** A finished run in the panel; its tab and panel stay open until {@link PanelRun.end}. */
export interface PanelRun {
  /** The panel's outcome entry: state completed, failed or stopped, and the text. */
  readonly outcome: TimelineEntry;
  /** The backend's session id. */
  readonly sessionId: string;
  /** The whole timeline at the end. */
  readonly timeline: readonly TimelineEntry[];
  readonly tab: WebTab;
  readonly panel: Panel;
  /** Closes the panel and the tab (tabs the agent opened stay: close them by URL if needed). */
  end(): Promise<void>;
}

/** Waits until the card at `index` of the timeline is no longer pending. */
function answeredAt(panel: Panel, index: number): Promise<boolean> {
  return until("the card to be answered", async () => (await panel.timeline())[index]?.state !== "pending", 10_000);
}

/**
 * Runs one task through the panel as a user would: opens `startUrl` in a new tab, the panel
 * beside it, types the task and presses Enter; answers approval cards with `onApproval` and
 * questions with `userReply`; presses Stop when `signal` aborts; waits for the outcome. The
 * panel's settings (backend, token, model) must be set first ({@link ExtensionBrowser.configure}).
 */
export async function runInPanel(ext: ExtensionBrowser, t: PanelTask): Promise<PanelRun> {
  const tab = await ext.openTab(t.prepare ? "about:blank" : t.startUrl);
  let panel: Panel | undefined;
  const end = async () => {
    await panel?.close().catch(() => undefined);
    await tab.close();
  };
  try {
    panel = await ext.openPanel(tab);
    let release: (() => Promise<void>) | undefined;
    if (t.prepare) {
      await t.prepare(panel);
      if (t.startWhenHeld) release = await tab.holdNavigation(t.startUrl);
      else await tab.navigate(t.startUrl);
    }
    const before = new Set(await ext.pastSessions());
    await panel.run(t.task);
    if (release) {
      const held = () => ext.control.eval<{ condition: { tabIds?: number[] } }[]>("chrome.declarativeNetRequest.getSessionRules()");
      await until("the extension to hold the tab", async () => (await held()).some((r) => r.condition.tabIds?.includes(tab.tabId)));
      await release();
    }
    const deadline = Date.now() + (t.timeoutMs ?? 300_000);
    let stopped = false;
    for (;;) {
      const entries = await panel.timeline();
      const outcome = entries.find((e) => e.kind === "outcome");
      if (outcome) {
        const sessionId = await until("the session's id", async () => (await ext.pastSessions()).find((id) => !before.has(id)) ?? (await ext.pastSessions())[0]);
        return { outcome, sessionId, timeline: entries, tab, panel, end };
      }
      if (Date.now() > deadline) throw new Error(`the task had no outcome in ${t.timeoutMs ?? 300_000} ms; the panel shows: ${entries.map((e) => `${e.kind}:${e.state} ${e.text}`).join(" | ")}`);
      if (t.signal?.aborted && !stopped) {
        stopped = true;
        await panel.click("button", "Stop");
      }
      const held = entries.findIndex((e) => e.kind === "approval" && e.state === "pending");
      if (held >= 0) {
        const answer = (await t.onApproval?.({ text: entries[held]?.text ?? "" })) ?? false;
        await panel.click("button", answerButton(answer));
        await answeredAt(panel, held);
        continue;
      }
      const question = entries.findIndex((e) => e.kind === "question" && e.state === "pending");
      if (question >= 0 && t.userReply !== undefined) {
        const choice = findTarget(snapshotRefs(await panel.snapshot()), { role: "button", name: t.userReply });
        if (choice) await panel.click("button", t.userReply);
        else await panel.type("textbox", "Your answer", t.userReply, true);
        await answeredAt(panel, question);
        continue;
      }
      await sleep(150);
    }
  } catch (e) {
    await end();
    throw e;
  }
}
