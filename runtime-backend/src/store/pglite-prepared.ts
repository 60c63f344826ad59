/**
 * The embedded engine's prepared statements, shared by the engine in this thread or a page
 * (`pglite-db.ts`) and in its worker thread (`pglite-worker.ts`). Node loads this file in the
 * worker directly (type stripping), so it imports nothing but PGlite: no project modules.
 */
import { parse, type PGlite, protocol } from "@electric-sql/pglite";

/**
 * Runs the statement prepared as `name` (`prepare name as sql`, once per engine: `prepared`
 * remembers it, one entry per name) with `params`, each a JSON text (`$n::json`), given as its
 * UTF-8 bytes.
 *
 * The parameters are bound in the extended protocol (Bind/Execute on the statement PREPARE
 * created, which share one namespace), not written into an `execute name('…')` text: the
 * engine then neither scans a literal of every group's rows (~100 KB for 50 turns) for quotes
 * nor has PGlite count a string's bytes character by character. Bytes go in binary format,
 * which for `json` is the text itself. It waits for any transaction in progress, as PGlite's
 * own `query` does, so it never runs inside another caller's transaction.
 */
export async function runPrepared(pg: PGlite, prepared: Map<string, Promise<unknown>>, name: string, sql: string, params: readonly Uint8Array[]): Promise<unknown[]> {
  let ready = prepared.get(name);
  if (!ready) {
    // Remembered as a promise: a second caller while the first prepares waits for it.
    ready = pg.exec(`prepare ${name} as ${sql}`);
    prepared.set(name, ready);
    ready.catch(() => prepared.delete(name));
  }
  await ready;
  return pg._runExclusiveTransaction(() =>
    pg.runExclusive(async () => {
      const messages: Awaited<ReturnType<PGlite["execProtocolStream"]>> = [];
      const send = async (m: Uint8Array) => void messages.push(...(await pg.execProtocolStream(m, { syncToFs: false })));
      try {
        await send(protocol.serialize.bind({ statement: name, values: [...params] }));
        await send(protocol.serialize.describe({ type: "P" }));
        await send(protocol.serialize.execute({}));
      } finally {
        await send(protocol.serialize.sync());
      }
      await pg.syncToFs();
      return parse.parseResults(messages, pg.parsers)[0]?.rows ?? [];
    }),
  );
}
