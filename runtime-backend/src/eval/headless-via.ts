import { access } from "node:fs/promises";
import { type RunContext, runTask, secretsScreenMask } from "@baton/sdk/client";
import { type Engine, type EngineHandlers, engineHandlers, paintedOver } from "@baton/sdk/engine";
import { type GuardedChromium, launchGuardedChromium, openPage } from "@baton/sdk/node";
import { guardUploads, mergeUrlPolicies, type UrlPolicy } from "@baton/sdk/policy";
import { engineProbe } from "@baton/sdk/script";
import { nodeUploadRule, refuseOutside } from "../cli/run/upload-dirs.js";
import { type MaskedCapture, viewportJpeg } from "./page-shot.js";
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
 * every tab it opened when it ends. A task with a site policy of its own runs in a browser
 * launched for it, held to that policy and the command's, as `baton run --policy` holds its
 * browser (the browser-level guard is set at launch).
 */
export function headlessVia(o: HeadlessOptions = {}): Via {
  // Held to the site policy like `baton run`'s browser: no local files, whatever a task's pages do.
  const launch = (policy: UrlPolicy | undefined) => launchGuardedChromium({ headless: !o.headed, ...(policy ? { policy } : {}) });
  return {
    name: "headless",
    async openLane(): Promise<Lane> {
      const shared = await launch(o.policy);
      return {
        async attempt(job: AttemptJob): Promise<Attempt> {
          const policy = job.policy ? (o.policy ? mergeUrlPolicies(o.policy, job.policy) : job.policy) : o.policy;
          const own: GuardedChromium | undefined = job.policy ? await launch(policy) : undefined;
          const { transport } = own ?? shared;
          const pages = async () => (await transport.send<{ targetInfos: TargetInfo[] }>("Target.getTargets")).targetInfos.filter((t) => t.type === "page").map((t) => t.targetId);
          let engine: Engine | undefined;
          let before = new Set<string>();
          const end = async () => {
            engine?.dispose();
            if (own) return own.close();
            for (const id of await pages().catch(() => [])) {
              if (!before.has(id)) await transport.send("Target.closeTarget", { targetId: id }).catch(() => undefined);
            }
          };
          try {
            await transport.send("Storage.clearCookies", {});
            before = new Set(await pages());
            const page = await openPage(transport, {
              viewport: { width: 1280, height: 800 },
              ...(policy ? { urlPolicy: policy } : {}),
              fileExists: (p) => access(p).then(() => true, () => false),
            });
            engine = page;
            const base = engineHandlers<RunContext>(page);
            // Uploads come from the suite's files/ (where relative paths resolve, for models and
            // scripts alike) and the --upload-dir folders; any other file is refused.
            const folders = [job.filesDir, ...(o.uploadDirs ?? [])];
            const outside = async (files: Parameters<typeof refuseOutside>[0]) => refuseOutside(files, folders, evalUploadRefusal);
            const guarded: EngineHandlers<RunContext> = { ...base, uploadFile: guardUploads(base.uploadFile, { rule: nodeUploadRule(folders, job.filesDir), outside }) };
            const handlers = o.wrapHandlers ? o.wrapHandlers(guarded, page) : guarded;
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
              page: engineProbe(page),
              onEvent: job.onEvent,
              onApproval: job.onApproval,
              signal: job.signal,
              ...(job.secrets?.length ? { secrets: job.secrets } : {}),
              ...(job.budget ? { budget: job.budget } : {}),
            });
            // The report's screenshot is painted over like every screenshot of the run: the
            // secrets' values, and the codes a one-time-code secret may have typed.
            const secrets = job.secrets ?? [];
            const masked: MaskedCapture | undefined = secrets.length
              ? async (capture) => {
                  const shot = await paintedOver(page.page, secretsScreenMask(secrets), "viewport", capture);
                  return shot.painted ? shot.image : undefined;
                }
              : undefined;
            return { outcome, page: engineProbe(page), screenshot: () => viewportJpeg((m, p) => page.page.send(m, p), masked), end };
          } catch (e) {
            await end();
            throw e;
          }
        },
        async close() {
          await shared.close();
        },
      };
    },
  };
}
