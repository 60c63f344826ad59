import { existsSync } from "node:fs";
import { join } from "node:path";
import type { TaskOutcome } from "@baton/sdk/client";
import type { PageProbe } from "@baton/sdk/script";
import { distDir, type ExtensionBrowser, launchExtensionBrowser, type Panel, type Target, until } from "../../../runtime-extension/driver/extension-browser.js";
import { viewportJpeg } from "./page-shot.js";
import { type Attempt, type AttemptJob, type Lane, type ToolTally, type Via, ViaUnavailable } from "./via.js";

/** Options of {@link extensionVia}. */
export interface ExtensionViaOptions {
  /** The unpacked extension (default: the repository's `runtime-extension/dist`). */
  readonly dir?: string;
  /** Show the browser windows (needs a display). */
  readonly headed?: boolean;
}

/** The repository's build of the extension, where `npm run build -w runtime-extension` writes it. */
export const defaultExtensionDir = distDir;

/** What the panel shows of a run, read in one go. */
interface PanelState {
  readonly approval: boolean;
  readonly question: boolean;
  readonly outcome?: "completed" | "stopped" | "failed";
  readonly steps: { tool: string; state: string; ms: number; error: string }[];
  readonly approvals: number;
}

const readPanel = `(() => {
  const items = [...document.querySelectorAll(".timeline > li")];
  const pending = (kind) => items.some((li) => li.dataset.kind === kind && li.dataset.state === "pending");
  const outcome = items.find((li) => li.dataset.kind === "outcome");
  return {
    approval: pending("approval"),
    question: pending("question"),
    outcome: outcome?.dataset.status,
    steps: items.filter((li) => li.dataset.kind === "step").map((li) => ({
      tool: li.dataset.tool ?? "", state: li.dataset.state ?? "", ms: Number(li.dataset.ms || 0),
      error: (li.querySelector(".step-error")?.textContent ?? "").split("\\n")[0],
    })),
    approvals: items.filter((li) => li.dataset.kind === "approval" && li.dataset.state !== "pending").length,
  };
})()`;

function tallyOf(s: PanelState): ToolTally {
  return {
    toolMs: s.steps.reduce((n, x) => n + x.ms, 0),
    errors: s.steps.filter((x) => x.state === "failed").map((x) => `${x.tool}: ${x.error}`),
    approvals: s.approvals,
  };
}

/** `p`, or an error after `ms`: a page that stopped answering fails its check instead of hanging the run. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** A page of the browser as the checks read it. */
function probeOf(t: Target): PageProbe {
  const evaluate = (expression: string) => within(10_000, "the final page", t.eval<unknown>(expression));
  return {
    evaluate,
    url: async () => String(await evaluate("location.href")),
    text: async () => String(await evaluate("document.body ? document.body.innerText : ''")),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Drives one task through the panel: types the goal, answers approval and question cards as
 * the task says, presses Stop when the time limit runs out, and resolves with the panel's
 * last state once the outcome shows.
 */
async function drive(panel: Panel, job: AttemptJob): Promise<PanelState> {
  await panel.run(job.goal);
  let stopped = false;
  for (;;) {
    const s = await panel.eval<PanelState>(readPanel);
    if (s.outcome) return s;
    if (job.signal.aborted && !stopped) {
      stopped = true;
      await panel.click("button", "Stop");
      // A run that does not end after Stop is reported as it stands.
      await until("the stopped run's outcome", async () => (await panel.eval<PanelState>(readPanel)).outcome, 15_000).catch(() => undefined);
      return panel.eval<PanelState>(readPanel);
    }
    if (s.approval) await panel.click("button", job.onApproval().approved ? "Approve" : "Deny");
    else if (s.question) await panel.type("textbox", "Your answer", job.userReply ?? "The user is not available to answer. Continue without the answer if you can.", true);
    else await sleep(150);
  }
}

/**
 * The extension's way: each lane is a Chromium with the built extension loaded (its own
 * profile). An attempt signs the panel in to the harness's backend with the task's model, opens
 * the start page in a window of its own and Chrome's side panel beside it, and runs the goal
 * from the panel's task box: the agent loop runs in the backend, the tools in the extension
 * over `chrome.debugger`, exactly as for a user. The checks then read the window's active tab.
 * The panel does not send a step limit, so the task's `max_steps` is the backend's default here.
 */
export function extensionVia(o: ExtensionViaOptions = {}): Via {
  const dir = o.dir ?? defaultExtensionDir;
  if (!existsSync(join(dir, "manifest.json"))) {
    throw new ViaUnavailable(
      dir === defaultExtensionDir
        ? `--via extension needs the built extension in ${dir}: run npm run build -w runtime-extension (or give --extension DIR)`
        : `--extension ${dir} is not an unpacked extension (no manifest.json)`,
    );
  }
  return {
    name: "extension",
    async openLane(): Promise<Lane> {
      const eb: ExtensionBrowser = await launchExtensionBrowser({ dir, ...(o.headed ? { headed: true } : {}) });
      const pages = async () => (await eb.transport.send<{ targetInfos: { targetId: string; type: string }[] }>("Target.getTargets")).targetInfos.filter((t) => t.type === "page").map((t) => t.targetId);
      return {
        async attempt(job: AttemptJob): Promise<Attempt> {
          await eb.transport.send("Storage.clearCookies", {});
          const before = new Set(await pages());
          let panel: Panel | undefined;
          const end = async () => {
            await panel?.close().catch(() => undefined);
            for (const id of await pages().catch(() => [])) {
              if (!before.has(id)) await eb.transport.send("Target.closeTarget", { targetId: id }).catch(() => undefined);
            }
          };
          try {
            await eb.control.eval(`chrome.storage.local.remove(["sessions", "run"])`);
            await eb.saveSettings({ backendUrl: job.backend.baseUrl, token: job.backend.token, model: job.model, approval: "irreversible", diagnostics: false });
            const tab = await eb.openTab(job.startUrl);
            panel = await eb.openPanel(tab);
            const state = await drive(panel, job);
            const sessionId = await eb.control.eval<string | undefined>(`chrome.storage.local.get("sessions").then((g) => g.sessions?.[0]?.sessionId)`);
            if (!sessionId) throw new Error("the panel recorded no session");
            const got = await job.client.getSession({ sessionId });
            if (!got.session) throw new Error(`the backend has no session ${sessionId}`);
            const outcome: TaskOutcome = {
              sessionId,
              status: state.outcome ?? "stopped",
              answer: got.session.answer,
              reason: got.session.reason || (state.outcome ? "" : "the run did not end after Stop"),
              session: got.session,
            };
            // The page the agent ended on: the active tab of the task's window.
            const activeTabId = await eb.control
              .eval<number | undefined>(`chrome.tabs.get(${tab.tabId}).then((t) => chrome.tabs.query({ windowId: t.windowId, active: true })).then((ts) => ts[0]?.id)`)
              .catch(() => undefined);
            const final = activeTabId === undefined || activeTabId === tab.tabId ? tab : await eb.tab(activeTabId);
            return {
              outcome,
              tally: tallyOf(state),
              page: probeOf(final),
              screenshot: () => within(10_000, "the screenshot", viewportJpeg((m, p) => eb.transport.send(m, p, final.sessionId))).catch(() => undefined),
              end,
            };
          } catch (e) {
            await end();
            throw e;
          }
        },
        close: () => eb.close(),
      };
    },
  };
}
