import { withTimeout } from "../../cdp/timeouts.js";
import type { PageSession } from "../page/page-session.js";
import { domAgentSource } from "../gen/in-page-source.js";

/**
 * Runs the DOM agent in a page: installs `domAgentSource` in an isolated world when the
 * document has none, then calls `__batonDomAgent(op, arg)` and returns its JSON result. An
 * extension implements it with `chrome.scripting.executeScript` (inject the agent as a file,
 * then call the global with `func`); Node and the tests use a CDP isolated world.
 */
export interface DomRunner {
  /** Calls one agent operation; rejects on a page error or when the page never answers. */
  call<T>(op: string, arg?: unknown): Promise<T>;
  /** The tab's current URL, as the runtime (not the page) sees it. */
  url(): Promise<string>;
}

/**
 * A `DomRunner` over CDP: an isolated world in the main frame, recreated after navigation.
 * Only `Page.createIsolatedWorld` and `Runtime.evaluate` are used, the same two things a
 * content script can do, so the tests exercise the fallback as the extension would run it.
 */
export function cdpDomRunner(page: PageSession, timeoutMs = 10_000): DomRunner {
  let contextId: number | undefined;
  let loaderId: string | undefined;
  const ensure = async (): Promise<number> => {
    const main = page.mainFrame();
    if (!main) throw new Error("no main frame");
    if (contextId !== undefined && loaderId === main.loaderId) return contextId;
    const r = await page.send<{ executionContextId: number }>("Page.createIsolatedWorld", {
      frameId: main.id,
      worldName: "baton-dom",
      grantUniveralAccess: false,
    });
    contextId = r.executionContextId;
    loaderId = main.loaderId;
    await page.send("Runtime.evaluate", { expression: domAgentSource, contextId, returnByValue: true });
    return contextId;
  };
  const once = async <T>(op: string, arg: unknown): Promise<T> => {
    const ctx = await ensure();
    const r = await page.send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      "Runtime.evaluate",
      {
        expression: `globalThis.__batonDomAgent(${JSON.stringify(op)}, ${JSON.stringify(arg ?? null)})`,
        contextId: ctx,
        returnByValue: true,
        awaitPromise: true,
      },
      page.rootId,
      timeoutMs,
    );
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    return r.result.value as T;
  };
  return {
    async call<T>(op: string, arg?: unknown): Promise<T> {
      try {
        return await withTimeout(once<T>(op, arg), timeoutMs, `DOM agent ${op}`);
      } catch (e) {
        // The document was replaced under us: a fresh world, one more try.
        if (/context|Cannot find|not found|__batonDomAgent/i.test(e instanceof Error ? e.message : "")) {
          contextId = undefined;
          return withTimeout(once<T>(op, arg), timeoutMs, `DOM agent ${op}`);
        }
        throw e;
      }
    },
    async url() {
      return page.mainFrame()?.url ?? "";
    },
  };
}
