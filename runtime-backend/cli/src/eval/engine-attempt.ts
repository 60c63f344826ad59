import { type RunContext, runTask } from "@baton/sdk/client";
import { type Engine, type EngineHandlers, engineHandlers } from "@baton/sdk/engine";
import { guardUploads, mergeUrlPolicies, type UrlPolicy } from "@baton/sdk/policy";
import { engineProbe } from "@baton/sdk/script";
import { nodeUploadRule, refuseOutside } from "../run/upload-dirs.js";
import { secretsPainted, viewportJpeg } from "./page-shot.js";
import type { Attempt, AttemptJob } from "./via.js";

/** Rewrites the engine's handlers for a run: tests break the engine on purpose with it. */
export type HandlerWrapper = (handlers: EngineHandlers<RunContext>, engine: Engine) => EngineHandlers<RunContext>;

/** Options of the headless via (`headlessVia`). */
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
  /** Remote browsers (`--cdp-url`, each `ws://…` or `http://host:port`) the lanes use in turn, instead of launching their own. */
  readonly cdpUrls?: readonly string[];
}

/** Why baton eval refuses a file outside its folders. */
export const evalUploadRefusal =
  "and baton eval asks no one: a suite's tasks upload from its files/ folder, or from a folder named with --upload-dir.";

/** The site policy a job's engine is held to: the command's, narrowed by the task's own. */
export function jobPolicy(o: HeadlessOptions, job: AttemptJob): UrlPolicy | undefined {
  if (!job.policy) return o.policy;
  return o.policy ? mergeUrlPolicies(o.policy, job.policy) : job.policy;
}

/**
 * Runs one job with the SDK's engine on a page a headless lane opened (launched or remote
 * browser alike); `end` closes what the attempt opened, and runs here too when the run could
 * not be made.
 */
export async function engineAttempt(engine: Engine, job: AttemptJob, o: HeadlessOptions, end: () => Promise<void>): Promise<Attempt> {
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
      ...(job.secrets?.length ? { secrets: job.secrets } : {}),
      ...(job.budget ? { budget: job.budget } : {}),
    });
    // The report's screenshot is painted over like every screenshot of the run.
    const masked = secretsPainted(engine.page, job.secrets);
    return { outcome, page: engineProbe(engine), screenshot: () => viewportJpeg((m, p) => engine.page.send(m, p), masked), end };
  } catch (e) {
    await end();
    throw e;
  }
}
