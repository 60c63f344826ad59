/**
 * The world the extension's end-to-end tests run in: the extension built with rollup into
 * `dist/` and loaded unpacked into headless Chromium (`testing/launch.ts`), a real `baton serve`
 * with its script files in one directory (`--script-dir`), and the fixture shop on 127.0.0.1.
 * The panel is Chrome's real side panel, opened beside the page with `chrome.sidePanel.open`
 * from a real (CDP) click, and driven with the engine itself: real clicks and keys, targets found
 * by role and name in a snapshot of the panel, so the panel's accessibility is tested on the way.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BackendProcess, startBackendProcess } from "@baton/cli/testing";
import { type ExtensionBrowser, launchWithExtension, type PanelSettings, type Target, until, type WebTab } from "../testing/launch.js";
import { type Shop, startShop } from "./fixture-shop.js";

export { artefactDir, distDir, type Panel, type TimelineEntry, until, type WebTab } from "../testing/launch.js";

/** Everything a test needs: the browser with the extension, the backend and the shop. */
export interface World extends ExtensionBrowser {
  readonly shop: Shop;
  readonly backend: BackendProcess;
  readonly token: string;
  readonly scriptDir: string;
  /** Writes a script file into the backend's script directory; returns the model name for it. */
  script(name: string, script: unknown): string;
  /** Saves the settings as if the user had signed in to the test's backend with `model`. */
  signIn(model: string, extra?: Partial<PanelSettings>): Promise<void>;
  /** Another extension (loaded beside Baton) attaches its own debugger to the tab. */
  rivalAttach(tab: WebTab): Promise<void>;
  /** Evaluates an expression in the tab through that extension's debugger session. */
  rivalEval(tab: WebTab, expression: string): Promise<unknown>;
  /** That extension lets the tab go. */
  rivalDetach(tab: WebTab): Promise<void>;
}

/** A second extension with the `debugger` permission and nothing else: a page to run it from. */
function writeRival(dir: string): void {
  mkdirSync(dir);
  writeFileSync(join(dir, "manifest.json"), JSON.stringify({ manifest_version: 3, name: "Rival debugger", version: "1.0", permissions: ["debugger"], background: { service_worker: "rival-worker.js" } }));
  writeFileSync(join(dir, "rival-worker.js"), "// Lets the test find this extension's id.\n");
  writeFileSync(join(dir, "rival.html"), "<!doctype html><title>Rival</title>");
}

/** Builds the extension and starts the backend, the shop and Chromium with the extension loaded. */
export async function startWorld(): Promise<World> {
  const work = mkdtempSync(join(tmpdir(), "baton-ext-e2e-"));
  const scriptDir = join(work, "scripts");
  mkdirSync(scriptDir);
  const token = "bt_extension_e2e_token_0123456789";
  const rivalDir = join(work, "rival");
  writeRival(rivalDir);
  const [shop, backend, ext] = await Promise.all([
    startShop(),
    startBackendProcess(["--data-dir", join(work, "data"), "--script-dir", scriptDir], { BATON_API_TOKEN: token }, 90_000),
    launchWithExtension({ alsoLoad: [rivalDir] }),
  ]);
  const rivalId = await until("the rival extension", async () => {
    const { targetInfos } = await ext.transport.send<{ targetInfos: { url: string }[] }>("Target.getTargets");
    return targetInfos.find((t) => t.url.endsWith("/rival-worker.js"))?.url.split("/")[2];
  });
  const rivalPage = `chrome-extension://${rivalId}/rival.html`;
  /** The rival's own page, where its `chrome.debugger` calls run; open while it holds a tab. */
  let rival: Target | undefined;
  const asRival = async <T>(expression: string) => {
    rival ??= await ext.openTab(rivalPage);
    return rival.eval<T>(expression);
  };
  return {
    ...ext,
    shop,
    backend,
    token,
    scriptDir,
    script(name: string, script: unknown) {
      writeFileSync(join(scriptDir, name), JSON.stringify(script, null, 2));
      return `script:${name}`;
    },
    signIn(model: string, extra: Partial<PanelSettings> = {}) {
      return ext.configure({ backendUrl: backend.url, token, model, ...extra });
    },
    rivalAttach: (tab) => asRival<void>(`chrome.debugger.attach({ tabId: ${tab.tabId} }, "1.3")`),
    rivalEval: (tab, expression) =>
      asRival(`chrome.debugger.sendCommand({ tabId: ${tab.tabId} }, "Runtime.evaluate", { expression: ${JSON.stringify(expression)}, returnByValue: true }).then((r) => r.result.value)`),
    rivalDetach: (tab) => asRival<void>(`chrome.debugger.detach({ tabId: ${tab.tabId} })`),
    async close() {
      await ext.close();
      await backend.kill();
      await shop.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
