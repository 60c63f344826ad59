import { access } from "node:fs/promises";
import { type GuardedChromium, launchGuardedChromium, openPage } from "@baton/sdk/node";
import type { Engine } from "@baton/sdk/engine";
import type { UrlPolicy } from "@baton/sdk/policy";
import { engineAttempt, type HeadlessOptions, jobPolicy } from "./engine-attempt.js";
import { remoteLane } from "./remote-lane.js";
import type { Attempt, AttemptJob, Lane, Via } from "./via.js";

export type { HandlerWrapper, HeadlessOptions } from "./engine-attempt.js";

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
}

/**
 * The Node runner: each lane is a Chromium driven by the SDK's engine over CDP, the same way
 * `baton run` drives it — one this process launches, or with `cdpUrls` the next of those remote
 * browsers in turn (`remoteLane`). In a launched browser every attempt gets a fresh page with
 * the browser's cookies cleared (sites of other attempts live on other ports, so their storage
 * is apart), and closes every tab it opened when it ends. A task with a site policy of its own
 * runs in a browser launched for it, held to that policy and the command's, as `baton run
 * --policy` holds its browser (the browser-level guard is set at launch); in a remote browser
 * its engine is held to both, the browser to the command's.
 */
export function headlessVia(o: HeadlessOptions = {}): Via {
  let opened = 0;
  return {
    name: "headless",
    async openLane(): Promise<Lane> {
      const remote = o.cdpUrls?.length ? o.cdpUrls[opened++ % o.cdpUrls.length] : undefined;
      return remote ? remoteLane(remote, o) : launchedLane(o);
    },
  };
}

async function launchedLane(o: HeadlessOptions): Promise<Lane> {
  // Held to the site policy like `baton run`'s browser: no local files, whatever a task's pages do.
  const launch = (policy: UrlPolicy | undefined) => launchGuardedChromium({ headless: !o.headed, ...(policy ? { policy } : {}) });
  const shared = await launch(o.policy);
  return {
    async attempt(job: AttemptJob): Promise<Attempt> {
      const policy = jobPolicy(o, job);
      const own: GuardedChromium | undefined = job.policy ? await launch(policy) : undefined;
      const { transport } = own ?? shared;
      const pages = async () => (await transport.send<{ targetInfos: TargetInfo[] }>("Target.getTargets")).targetInfos.filter((t) => t.type === "page").map((t) => t.targetId);
      let before = new Set<string>();
      const closeOwn = async () => {
        if (own) await own.close();
      };
      let engine: Engine;
      try {
        await transport.send("Storage.clearCookies", {});
        before = new Set(await pages());
        engine = await openPage(transport, {
          viewport: { width: 1280, height: 800 },
          // As in baton run: the loop asks for the whole page whenever the model no longer holds the last one.
          snapshotDiffs: o.snapshotDiffs ?? true,
          ...(policy ? { urlPolicy: policy } : {}),
          fileExists: (p) => access(p).then(() => true, () => false),
        });
      } catch (e) {
        await closeOwn();
        throw e;
      }
      const opened = engine;
      return engineAttempt(opened, job, o, async () => {
        opened.dispose();
        if (own) return own.close();
        for (const id of await pages().catch(() => [])) {
          if (!before.has(id)) await transport.send("Target.closeTarget", { targetId: id }).catch(() => undefined);
        }
      });
    },
    async close() {
      await shared.close();
    },
  };
}
