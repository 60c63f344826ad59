import type { PageSession } from "./page-session.js";

interface World {
  readonly loaderId: string;
  readonly contextId: Promise<number | undefined>;
}

const worlds = new WeakMap<PageSession, World>();

/**
 * The isolated world of the page's current top document, created once per document. Start it
 * with the snapshot's first reads so it costs no round trip of its own; page scripts cannot
 * reach into it, so a page that overrides `elementFromPoint` cannot fake a verdict.
 */
export function topWorld(page: PageSession): Promise<number | undefined> {
  const main = page.mainFrame();
  if (!main) return Promise.resolve(undefined);
  const known = worlds.get(page);
  if (known && known.loaderId === main.loaderId) return known.contextId;
  const world: World = {
    loaderId: main.loaderId,
    contextId: page
      .send<{ executionContextId: number }>("Page.createIsolatedWorld", { frameId: main.id, worldName: "baton-hit", grantUniveralAccess: false })
      .then((r) => r.executionContextId)
      .catch(() => {
        // A transient failure (mid-navigation) must not pin this document to the slow path.
        if (worlds.get(page) === world) worlds.delete(page);
        return undefined;
      }),
  };
  worlds.set(page, world);
  return world.contextId;
}

/** Forgets the page's hit world (it died with its document); the next call makes a new one. */
export function forgetTopWorld(page: PageSession): void {
  worlds.delete(page);
}
