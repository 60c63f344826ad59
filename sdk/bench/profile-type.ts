/**
 * Where a type_text call's time goes: wraps the transport, types into a fixture page's field
 * through the engine's tool several times, and prints every CDP command of the last call with
 * its start and end (ms since the call began), then p50 of the whole call.
 *
 *   npx tsx sdk/bench/profile-type.ts [/path] [field name] [--runs N] [--text "..."] [--fresh]
 *
 * `--fresh` loads the page and takes a snapshot before each call, so every call types into a
 * field nobody focused (as `npm run bench:mcp` does); otherwise the calls type into the same
 * field again and again.
 *
 * Then, alternating in the same page, the key events alone: the engine's `typeChars` (each
 * key's press and release sent at once) against the same keys with each release sent only
 * after its press was answered (the engine before 2026-11-24), p50 of each and their ratio.
 */
import { typeChars } from "../src/engine/actions/keyboard.js";
import { charKey, modifierBits } from "../src/engine/actions/keys.js";
import type { PageSession } from "../src/engine/page/page-session.js";
import { engineHandlers } from "../src/engine/handlers.js";
import { startFixtureServer } from "../src/engine/fixtures/server.js";
import { launchChromium } from "../src/node/launch-chromium.js";
import { openPage } from "../src/node/open-page.js";
import { WebSocketTransport } from "../src/node/ws-transport.js";
import { type Call, Recording } from "./recording-transport.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1]! : fallback;
};
const fresh = args.includes("--fresh");
if (fresh) args.splice(args.indexOf("--fresh"), 1);
const runs = Number(opt("--runs", "15"));
const text = opt("--text", "release notes");
const path = args[0] ?? "/shop";
const fieldName = args[1] ?? "Search products";

const server = await startFixtureServer();
const browser = await launchChromium({ args: ["--site-per-process"] });
const ws = await WebSocketTransport.connect(browser.wsEndpoint);
const rec = new Recording(ws);
try {
  const engine = await openPage(rec, { viewport: { width: 1280, height: 800 } });
  const tools = engineHandlers(engine);
  const load = async (): Promise<string> => {
    await tools.navigate({ url: server.originA + path } as never, undefined);
    const snap = await tools.takeSnapshot({} as never, undefined);
    const found = /^\s*(e\d+) /.exec((snap.text ?? "").split("\n").find((l) => l.includes(`"${fieldName}"`)) ?? "")?.[1];
    if (!found) throw new Error(`no "${fieldName}" on ${path}`);
    return found;
  };
  let ref = await load();
  const totals: number[] = [];
  let t0 = 0;
  for (let i = 0; i < runs; i++) {
    if (fresh && i > 0) ref = await load();
    rec.calls = [];
    t0 = performance.now();
    await tools.typeText({ ref, text, clear: true } as never, undefined);
    totals.push(performance.now() - t0);
  }
  const keys = rec.calls.filter((c) => c.method === "Input.dispatchKeyEvent");
  const label = (c: Call): string => (c.method === "Input.dispatchKeyEvent" ? `${c.method} ${String(c.params?.type)} ${String(c.params?.key)}` : c.method);
  for (const c of rec.calls) {
    process.stdout.write(`  ${(c.start - t0).toFixed(2).padStart(7)} → ${(c.end - t0).toFixed(2).padStart(7)}  ${label(c)}\n`);
  }
  totals.sort((a, b) => a - b);
  const span = keys.length ? Math.max(...keys.map((c) => c.end)) - Math.min(...keys.map((c) => c.start)) : 0;
  process.stdout.write(
    `\n${path} "${fieldName}", ${JSON.stringify(text)}: type_text p50 ${totals[Math.floor(totals.length / 2)]!.toFixed(1)} ms ` +
      `(min ${totals[0]!.toFixed(1)}) over ${runs}; last call ${rec.calls.length} CDP commands, ${keys.length} key events spanning ${span.toFixed(1)} ms\n`,
  );

  // The key events alone, alternating: the engine's typeChars against press-then-release.
  const awaitedRelease = async (page: PageSession, chars: string): Promise<void> => {
    let pending: Promise<void>[] = [];
    for (const ch of chars) {
      const def = charKey(ch)!;
      const base = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode, modifiers: def.shift ? modifierBits.Shift : 0 };
      pending.push(
        page
          .send("Input.dispatchKeyEvent", { ...base, type: "keyDown", text: def.text, unmodifiedText: def.text })
          .then(() => page.send("Input.dispatchKeyEvent", { ...base, type: "keyUp" }))
          .then(() => undefined),
      );
      if (pending.length >= 40) {
        await Promise.all(pending);
        pending = [];
      }
    }
    await Promise.all(pending);
  };
  const clearField = () => engine.page.send("Runtime.evaluate", { expression: "document.activeElement.value = ''" });
  const field = () => engine.page.send<{ result: { value: string } }>("Runtime.evaluate", { expression: "document.activeElement.value", returnByValue: true });
  const ms: Record<"together" | "awaited", number[]> = { together: [], awaited: [] };
  for (let i = 0; i < runs * 2; i++) {
    const mode = i % 2 === 0 ? "together" : "awaited";
    await clearField();
    const t = performance.now();
    if (mode === "together") await typeChars(engine.page, text, false);
    else await awaitedRelease(engine.page, text);
    ms[mode].push(performance.now() - t);
    const typed = (await field()).result.value;
    if (typed !== text) throw new Error(`${mode}: the field holds ${JSON.stringify(typed)}, not ${JSON.stringify(text)}`);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  process.stdout.write(
    `key events alone, ${runs} each, alternating: press and release sent together p50 ${med(ms.together).toFixed(1)} ms, ` +
      `release after the press's answer p50 ${med(ms.awaited).toFixed(1)} ms (ratio ${(med(ms.together) / med(ms.awaited)).toFixed(2)})\n`,
  );
} finally {
  await ws.close().catch(() => undefined);
  await browser.close();
  await server.close();
}
