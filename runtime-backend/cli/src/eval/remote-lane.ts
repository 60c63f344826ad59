import { access } from "node:fs/promises";
import { connectCdpEndpoint, openPage } from "@baton/sdk/node";
import { guardBrowser, openUrlPolicy } from "@baton/sdk/policy";
import { engineAttempt, type HeadlessOptions, jobPolicy } from "./engine-attempt.js";
import type { Attempt, AttemptJob, Lane } from "./via.js";

/**
 * A lane in a remote browser at `cdpUrl` (a grid's or hosted service's endpoint, or Chromium on
 * another host), given to the eval whole: the connection holds every target to the site policy
 * (`guardBrowser`; what only a launch switch can hold is not, see `attachedGuardNotice`). Each
 * attempt runs in a browser context of its own (`Target.createBrowserContext`), so runs share
 * no cookies or storage, and the context is disposed when the attempt ends; the browser itself
 * is left running. Errors name the endpoint.
 */
export async function remoteLane(cdpUrl: string, o: HeadlessOptions): Promise<Lane> {
  const transport = await connectCdpEndpoint(cdpUrl);
  try {
    await guardBrowser(transport, o.policy ?? openUrlPolicy);
  } catch (e) {
    await transport.close();
    throw new Error(`the browser at ${cdpUrl} could not be held to the site policy: ${e instanceof Error ? e.message : String(e)}`);
  }
  return {
    browser: cdpUrl,
    async attempt(job: AttemptJob): Promise<Attempt> {
      const policy = jobPolicy(o, job);
      try {
        // Disposed with our connection too, so a crashed eval leaves no contexts behind.
        const { browserContextId } = await transport.send<{ browserContextId: string }>("Target.createBrowserContext", { disposeOnDetach: true });
        const dispose = async () => {
          await transport.send("Target.disposeBrowserContext", { browserContextId }).catch(() => undefined);
        };
        const engine = await openPage(transport, {
          browserContextId,
          noBackForwardCache: true,
          viewport: { width: 1280, height: 800 },
          snapshotDiffs: o.snapshotDiffs ?? true,
          ...(policy ? { urlPolicy: policy } : {}),
          fileExists: (p) => access(p).then(() => true, () => false),
        }).catch(async (e: unknown) => {
          await dispose();
          throw e;
        });
        return await engineAttempt(engine, job, o, async () => {
          engine.dispose();
          await dispose();
        });
      } catch (e) {
        throw new Error(`the browser at ${cdpUrl}: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    async close() {
      await transport.close().catch(() => undefined);
    },
  };
}
