import { access } from "node:fs/promises";
import { launchGuardedChromium, openPage } from "@baton/sdk/node";
import { engineAttempt, type HeadlessOptions } from "./engine-attempt.js";
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
 * is apart), and closes every tab it opened when it ends.
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
  const browser = await launchGuardedChromium({ headless: !o.headed, ...(o.policy ? { policy: o.policy } : {}) });
  const { transport } = browser;
  const pages = async () => (await transport.send<{ targetInfos: TargetInfo[] }>("Target.getTargets")).targetInfos.filter((t) => t.type === "page").map((t) => t.targetId);
  return {
    async attempt(job: AttemptJob): Promise<Attempt> {
      await transport.send("Storage.clearCookies", {});
      const before = new Set(await pages());
      const engine = await openPage(transport, {
        viewport: { width: 1280, height: 800 },
        ...(o.policy ? { urlPolicy: o.policy } : {}),
        fileExists: (p) => access(p).then(() => true, () => false),
      });
      return engineAttempt(engine, job, o, async () => {
        engine.dispose();
        for (const id of await pages().catch(() => [])) {
          if (!before.has(id)) await transport.send("Target.closeTarget", { targetId: id }).catch(() => undefined);
        }
      });
    },
    async close() {
      await browser.close();
    },
  };
}
