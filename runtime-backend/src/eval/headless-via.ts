import { access } from "node:fs/promises";
import { type RunContext, runTask } from "@baton/sdk/client";
import { type Engine, type EngineHandlers, engineHandlers } from "@baton/sdk/engine";
import { launchGuardedChromium, openPage } from "@baton/sdk/node";
import { guardUploads, type UrlPolicy } from "@baton/sdk/policy";
import { engineProbe } from "@baton/sdk/script";
import { nodeUploadRule, refuseOutside } from "../cli/run/upload-dirs.js";
import { viewportJpeg } from "./page-shot.js";
import type { Attempt, AttemptJob, Lane, Via } from "./via.js";

/** Rewrites the engine's handlers for a run: tests break the engine on purpose with it. */
export type HandlerWrapper = (handlers: EngineHandlers<RunContext>, engine: Engine) => EngineHandlers<RunContext>;

/** Options of {@link headlessVia}. */
export interface HeadlessOptions {
  /** Show the browser windows (needs a display). */
  readonly headed?: boolean;
  readonly wrapHandlers?: HandlerWrapper;
  /** The site policy (`--policy` and the origin flags) every run's browser and engine are held to. */
  readonly policy?: UrlPolicy;
  /** Folders uploads may come from besides the suite's files/ (`--upload-dir`). */
  readonly uploadDirs?: readonly string[];
  /** Snapshot diffs in the engine (default on, as in `baton run`); off to measure whole pages. */
  readonly snapshotDiffs?: boolean;
}

/** Why baton eval refuses a file outside its folders. */
export const evalUploadRefusal =
  "and baton eval asks no one: a suite's tasks upload from its files/ folder, or from a folder named with --upload-dir.";

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
}

/**
 * The Node runner: each lane is a headless Chromium driven by the SDK's engine over CDP, the
 * same way `baton run` drives it. Every attempt gets a fresh page with the browser's cookies
 * cleared (sites of other attempts live on other ports, so their storage is apart), and closes
 * every tab it opened when it ends.
 */
export function headlessVia(o: HeadlessOptions = {}): Via {
  return {
    name: "headless",
    async openLane(): Promise<Lane> {
      // Held to the site policy like `baton run`'s browser: no local files, whatever a task's pages do.
      const browser = await launchGuardedChromium({ headless: !o.headed, ...(o.policy ? { policy: o.policy } : {}) });
      const { transport } = browser;
      const pages = async () => (await transport.send<{ targetInfos: TargetInfo[] }>("Target.getTargets")).targetInfos.filter((t) => t.type === "page").map((t) => t.targetId);
      return {
        async attempt(job: AttemptJob): Promise<Attempt> {
          await transport.send("Storage.clearCookies", {});
          const before = new Set(await pages());
          const engine = await openPage(transport, {
            viewport: { width: 1280, height: 800 },
            // As in baton run: the loop asks for the whole page whenever the model no longer holds the last one.
            snapshotDiffs: o.snapshotDiffs ?? true,
            ...(o.policy ? { urlPolicy: o.policy } : {}),
            fileExists: (p) => access(p).then(() => true, () => false),
          });
          const end = async () => {
            engine.dispose();
            for (const id of await pages().catch(() => [])) {
              if (!before.has(id)) await transport.send("Target.closeTarget", { targetId: id }).catch(() => undefined);
            }
          };
          try {
            const base = engineHandlers<RunContext>(engine);
            // Uploads come from the suite's files/ (where relative paths resolve, for models and
            // scripts alike) and the --upload-dir folders; any other file is refused.
            const folders = [job.filesDir, ...(o.uploadDirs ?? [])];
            const outside = async (files: Parameters<typeof refuseOutside>[0]) => refuseOutside(files, folders, evalUploadRefusal);
            const own: EngineHandlers<RunContext> = { ...base, uploadFile: guardUploads(base.uploadFile, { rule: nodeUploadRule(folders, job.filesDir), outside }) };
            const handlers = o.wrapHandlers ? o.wrapHandlers(own, engine) : own;
            const outcome = await runTask(job.client, {
              task: job.goal,
              startUrl: job.startUrl,
              model: job.model,
              maxSteps: job.maxSteps,
              handlers: {
                ...handlers,
                askUser: async () => ({ answer: job.userReply ?? "The user is not available to answer. Continue without the answer if you can." }),
              },
              // The page's URL goes with every step: the backend's site policy and remembered approvals ask it.
              page: engineProbe(engine),
              onEvent: job.onEvent,
              onApproval: job.onApproval,
              signal: job.signal,
            });
            return { outcome, page: engineProbe(engine), screenshot: () => viewportJpeg((m, p) => engine.page.send(m, p)), end };
          } catch (e) {
            await end();
            throw e;
          }
        },
        async close() {
          await browser.close();
        },
      };
    },
  };
}
