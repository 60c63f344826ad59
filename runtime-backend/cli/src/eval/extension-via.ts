import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ApprovalDecision, TaskBudget, TaskOutcome } from "@baton/sdk/client";
import { Engine } from "@baton/sdk/engine";
import { hasSiteLists, siteListsOf } from "@baton/sdk/policy";
import type { PageProbe } from "@baton/sdk/script";
import {
  distDir,
  type ExtensionBrowser,
  launchWithExtension,
  type Panel,
  type PanelAnswer,
  type PanelRun,
  type PanelSettings,
  runInPanel,
  Target,
  type TimelineEntry,
} from "@baton/extension/testing";
import { secretsPainted, viewportJpeg } from "./page-shot.js";
import { type Attempt, type AttemptJob, type Lane, type ToolTally, type Via, ViaUnavailable } from "./via.js";

/** Options of {@link extensionVia}. */
export interface ExtensionViaOptions {
  /** The unpacked extension (default: the repository's `runtime-extension/dist`). */
  readonly dir?: string;
  /** Show the browser windows (needs a display). */
  readonly headed?: boolean;
  /** Folders uploads may come from besides the suite's files/ (`--upload-dir`). */
  readonly uploadDirs?: readonly string[];
  /** Trust the lane leaves unset, so that tests see each trust task fail without it. */
  readonly withoutTrust?: readonly TrustPart[];
}

/**
 * A part of a task's trust setup: its site policy, its one-time-code secrets, its budget, its
 * answers for the site (given as once instead), and the paint over the report's screenshot.
 */
export type TrustPart = "policy" | "totp" | "budget" | "site_answers" | "mask";

/** The heading of the panel's card for an upload from outside the upload folders (`timeline-view.tsx`). */
const uploadCard = /Allow this upload\?/;

/** The repository's build of the extension, where `npm run build -w runtime-extension` writes it. */
export const defaultExtensionDir = distDir;

/** Time in tools, tool errors and approvals, from the panel's timeline. */
function tallyOf(timeline: readonly TimelineEntry[]): ToolTally {
  const steps = timeline.filter((e) => e.kind === "step");
  return {
    toolMs: steps.reduce((n, e) => n + (Number(e.ms) || 0), 0),
    errors: steps.filter((e) => e.state === "failed").map((e) => `${e.tool}: ${e.text}`),
    approvals: timeline.filter((e) => e.kind === "approval" && e.state !== "pending").length,
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

/** A tab of the browser (one the agent or a page opened) as a target the checks can read. */
async function tabTarget(ext: ExtensionBrowser, tabId: number): Promise<Target> {
  const targetId = await ext.control.eval<string | undefined>(`chrome.debugger.getTargets().then((ts) => ts.find((t) => t.tabId === ${tabId})?.id)`);
  if (!targetId) throw new Error(`no tab ${tabId}`);
  const { sessionId } = await ext.transport.send<{ sessionId: string }>("Target.attachToTarget", { targetId, flatten: true });
  return new Target(ext, targetId, sessionId);
}

/** The card's button for the harness's decision: a decision for the site is "Always" / "Never on this site". */
function panelAnswer(d: ApprovalDecision): PanelAnswer {
  if (d.scope === "site") return d.approved ? "always" : "never";
  return d.approved;
}

/** A task's budget as the panel's "Budget per task" (0: no ceiling on that measure). */
function panelBudget(b: TaskBudget): NonNullable<PanelSettings["budget"]> {
  return { tokens: b.tokens ?? 0, costUsd: b.costUsd ?? 0, seconds: b.seconds ?? 0 };
}

/** What a lane's earlier attempt left in the extension's Settings, to undo before the next. */
interface LaneSettings {
  policy: boolean;
  secrets: string[];
}

/**
 * Sets the task's trust in the panel's Settings, the way a person does (its site policy
 * typed in, its secrets added), after undoing what the lane's earlier task set there.
 */
async function prepareTrust(panel: Panel, job: AttemptJob, lane: LaneSettings, without: ReadonlySet<TrustPart>): Promise<void> {
  for (const name of lane.secrets.splice(0)) await panel.deleteSecret(name);
  const policy = without.has("policy") ? undefined : job.policy;
  if (policy || lane.policy) {
    await panel.setSitePolicy(policy ? siteListsOf(policy) : {});
    lane.policy = !!policy;
  }
  for (const s of job.secrets ?? []) {
    if (s.kind === "totp" && without.has("totp")) continue;
    await panel.addSecret({ name: s.name, value: s.value, totp: s.kind === "totp", ...(s.origins ? { origins: s.origins } : {}) });
    lane.secrets.push(s.name);
  }
}

/** The visible part of tab `targetId` as the report keeps it: painted over where the run's secrets show. */
async function laneShot(ext: ExtensionBrowser, final: Target, job: AttemptJob, unpainted: boolean): Promise<string | undefined> {
  const send = <T>(m: string, p?: Record<string, unknown>) => ext.transport.send<T>(m, p, final.sessionId);
  if (!job.secrets?.length || unpainted) return viewportJpeg(send);
  // The one masking path of the engine, on a session of the test's own to the final tab.
  const engine = await Engine.attach(ext.transport, final.targetId);
  try {
    return await viewportJpeg((m, p) => engine.page.send(m, p), secretsPainted(engine.page, job.secrets));
  } finally {
    engine.dispose();
  }
}

/**
 * The extension's way: each lane is a Chromium with the built extension loaded (its own
 * profile). An attempt signs the panel in to the harness's backend with the task's model, opens
 * the start page in a window of its own and Chrome's side panel beside it, and runs the goal
 * from the panel's task box: the agent loop runs in the backend, the tools in the extension
 * over `chrome.debugger`, exactly as for a user. A task's site policy and secrets are set in the
 * panel's Settings and its budget as the panel's "Budget per task", and its held calls are
 * answered on the panel's card (once, or always / never on the site), as a person would. Under
 * a policy with allowed or blocked sites the start page's request waits until the task holds
 * its tab, so the extension's network rules cover the page's first frame (the extension's upload folders are the suite's
 * `files/`, where relative paths resolve, and the `--upload-dir` folders; the card asking about
 * a file from anywhere else is denied, as baton eval asks no one). The checks then read the
 * window's active tab; the report's screenshot of it is painted over where a secret shows.
 * The panel is worked by the extension's own driver (`runInPanel`). The panel does not send a step limit, so the task's `max_steps` is the backend's default here.
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
      const ext = await launchWithExtension({ dir, build: false, ...(o.headed ? { headed: true } : {}) });
      const pages = async () => (await ext.transport.send<{ targetInfos: { targetId: string; type: string }[] }>("Target.getTargets")).targetInfos.filter((t) => t.type === "page").map((t) => t.targetId);
      const settings: LaneSettings = { policy: false, secrets: [] };
      const without = new Set(o.withoutTrust);
      return {
        async attempt(job: AttemptJob): Promise<Attempt> {
          await ext.transport.send("Storage.clearCookies", {});
          const before = new Set(await pages());
          let run: PanelRun | undefined;
          const end = async () => {
            await run?.end().catch(() => undefined);
            for (const id of await pages().catch(() => [])) {
              if (!before.has(id)) await ext.transport.send("Target.closeTarget", { targetId: id }).catch(() => undefined);
            }
          };
          try {
            await ext.configure({ backendUrl: job.backend.baseUrl, token: job.backend.token, model: job.model, ...(job.budget && !without.has("budget") ? { budget: panelBudget(job.budget) } : {}) });
            // Uploads come from the suite's files/ (relative paths resolve there) and --upload-dir, as via headless.
            const folders = [job.filesDir, ...(o.uploadDirs ?? [])];
            await ext.setUploadFolders(folders);
            run = await runInPanel(ext, {
              startUrl: job.startUrl,
              task: job.goal,
              onApproval: (card) => {
                if (uploadCard.test(card.text)) return false;
                const answer = panelAnswer(job.onApproval());
                return typeof answer === "string" && without.has("site_answers") ? answer === "always" : answer;
              },
              // Only a task with trust to set, or after one, opens Settings (and its start page after them).
              ...(job.policy || job.secrets?.length || settings.policy || settings.secrets.length ? { prepare: (panel: Panel) => prepareTrust(panel, job, settings, without) } : {}),
              // A policy that limits loading holds the tabs the agent takes: its start page loads in one.
              ...(job.policy && !without.has("policy") && hasSiteLists(job.policy) ? { startWhenHeld: true } : {}),
              userReply: job.userReply ?? "The user is not available to answer. Continue without the answer if you can.",
              signal: job.signal,
            });
            const { sessionId, tab } = run;
            const got = await job.client.getSession({ sessionId });
            if (!got.session) throw new Error(`the backend has no session ${sessionId}`);
            const status = run.outcome.state as TaskOutcome["status"];
            const outcome: TaskOutcome = { sessionId, status, answer: got.session.answer, reason: got.session.reason, session: got.session };
            // The page the agent ended on: the active tab of the task's window.
            const activeTabId = await ext.control
              .eval<number | undefined>(`chrome.tabs.get(${tab.tabId}).then((t) => chrome.tabs.query({ windowId: t.windowId, active: true })).then((ts) => ts[0]?.id)`)
              .catch(() => undefined);
            const final = activeTabId === undefined || activeTabId === tab.tabId ? tab : await tabTarget(ext, activeTabId);
            return {
              outcome,
              tally: tallyOf(run.timeline),
              page: probeOf(final),
              screenshot: () => within(10_000, "the screenshot", laneShot(ext, final, job, without.has("mask"))).catch(() => undefined),
              end,
            };
          } catch (e) {
            await end();
            throw e;
          }
        },
        close: () => ext.close(),
      };
    },
  };
}
