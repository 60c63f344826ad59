/**
 * `npm run bench:mcp`: Baton's MCP server against Playwright MCP and Chrome DevTools MCP,
 * through one MCP client (the official SDK's) on the same pages and the same Debian Chromium.
 * Prints, per page, the tokens of a snapshot response (o200k_base) and how many of the page's
 * visible clickable elements each snapshot gives a ref (ground truth read from the live page),
 * then the latency of each tool call (p50 over the rounds), with Baton/Playwright ratios. The
 * servers run side by side and take turns round by round, the order rotating. Typing
 * is timed twice: each server's own type call (Playwright MCP's fills the value at once) and
 * with a key event per character (Playwright MCP's `slowly`, Chrome DevTools MCP's `type_text`;
 * Baton has one `type_text`, key by key where the page listens for keys — the mail page's search
 * does — and one inserted text where nothing would hear a key).
 *
 *   BENCH_ROUNDS=5 (default) — rounds per page; each navigates, snapshots, types and clicks.
 *   BENCH_ORDER=sequential — one server's rounds after another's instead of taking turns.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { engineHandlers } from "@baton/sdk/engine";
import { startFixtureServer } from "@baton/sdk/engine/fixtures";
import { ensureChromium, launchChromium, openPage, WebSocketTransport } from "@baton/sdk/node";
import { serveStatic } from "../src/run/static-server.js";
import { mcpSiteDir } from "../src/mcp/mcp-testing.js";
import { type Clickable, visibleClickables } from "./mcp-clickables.js";
import { type Peer, peers } from "./mcp-peers.js";

interface Page {
  readonly label: string;
  readonly url: string;
  /** A clickable element's name and a text field's name, for the click and type calls. */
  readonly click: string;
  readonly type: string;
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
/** BENCH_ORDER=sequential: each server does all its rounds before the next (the order before 2026-11-25). */
const sequential = process.env.BENCH_ORDER === "sequential";
// Servers run in a scratch directory: Playwright MCP writes snapshot files into its working directory.
const workDir = mkdtempSync(join(tmpdir(), "baton-bench-mcp-"));
const chromium = ensureChromium().path;
const fixtures = await startFixtureServer();
const site = await serveStatic(mcpSiteDir);
const only = process.env.BENCH_PAGES?.split(",");
const allPages: Page[] = [
  { label: "notes (own)", url: `${site.url}/index.html`, click: "Save", type: "Name" },
  { label: "board (own, app-like)", url: `${site.url}/board.html`, click: "Only my issues", type: "Search cards" },
  { label: "mail (own, app-like; its search hears keys)", url: `${site.url}/mail.html`, click: "Compose", type: "Search mail" },
  { label: "/shop (engine fixture)", url: `${fixtures.originA}/shop`, click: "Apply filters", type: "Search products" },
  { label: "/app (engine fixture)", url: `${fixtures.originA}/app`, click: "Notifications", type: "Job title" },
];
const pages = only ? allPages.filter((p) => only.some((o) => p.label.startsWith(o))) : allPages;

/**
 * Text for matching: whitespace collapsed, lower case, and without double quotes, which the
 * snapshots put around names (`row "★ Grace Hopper …"` then `"1 Oct"` on a child line).
 */
const norm = (s: string): string => s.replace(/"/g, " ").replace(/\s+/g, " ").trim().toLowerCase();
const textOf = (r: CallToolResult): string => r.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");

/**
 * Each ref of a snapshot with the text it stands for: its line and the deeper-indented lines
 * under it that carry no ref of their own (Playwright puts a div's text on child lines).
 */
function refTexts(snapshot: string, ref: RegExp): { ref: string; text: string }[] {
  const lines = snapshot.split("\n");
  const indent = (l: string): number => /^\s*/.exec(l)![0].length;
  const out: { ref: string; text: string }[] = [];
  lines.forEach((line, i) => {
    const m = ref.exec(line);
    if (!m?.[1]) return;
    let text = line;
    for (let j = i + 1; j < lines.length && indent(lines[j]!) > indent(line) && !ref.test(lines[j]!); j++) text += ` ${lines[j]}`;
    out.push({ ref: m[1], text: norm(text.replace(ref, "")) });
  });
  return out;
}

/** The ref standing for an element named `name`: its text holds the name, and not much more (not a container of many). */
function refFor(entries: { ref: string; text: string }[], names: readonly string[]): string | undefined {
  for (const n of names.map(norm)) {
    // The tightest: a wrapper holding a label and its field loses to the field.
    const hit = entries.filter((e) => e.text.includes(n) && e.text.length <= n.length + 80).sort((a, b) => a.text.length - b.text.length)[0];
    if (hit) return hit.ref;
  }
  return undefined;
}

async function groundTruth(): Promise<Map<string, Clickable[]>> {
  const browser = await launchChromium({ executablePath: chromium });
  const transport = await WebSocketTransport.connect(browser.wsEndpoint);
  const engine = await openPage(transport, { viewport: { width: 1280, height: 800 } });
  const tools = engineHandlers(engine);
  const truth = new Map<string, Clickable[]>();
  for (const p of pages) {
    await tools.navigate({ url: p.url } as never, undefined);
    const r = await engine.page.send<{ result: { value: Clickable[] } }>("Runtime.evaluate", { expression: `(${visibleClickables.toString()})()`, returnByValue: true });
    truth.set(p.url, r.result.value.filter((c) => c.names.length > 0));
  }
  await transport.close();
  await browser.close();
  return truth;
}

const p50 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.floor((s.length - 1) / 2)]!;
};

interface PeerResult {
  tokens: Map<string, number>;
  reachable: Map<string, [number, number]>;
  ms: Record<"navigate" | "snapshot" | "type" | "typeByKey" | "click", number[]>;
  /** The type call's times on each page. */
  typeByPage: Map<string, number[]>;
  missing: string[];
}

type Call = (c: { tool: string; args: Record<string, unknown> }) => Promise<[CallToolResult, number]>;

/** Starts a server and connects the MCP client to it; the first call (about:blank) warms it up. */
async function connect(peer: Peer): Promise<{ call: Call; close: () => Promise<void> }> {
  const client = new Client({ name: "baton-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: peer.command, args: peer.args, cwd: workDir, env: { ...process.env, CI: "true" } as Record<string, string>, stderr: "ignore" }));
  const call: Call = async (c) => {
    const t = performance.now();
    const r = (await client.callTool({ name: c.tool, arguments: c.args }, undefined, { timeout: 60_000 })) as CallToolResult;
    return [r, performance.now() - t];
  };
  // Warm up: the first call launches the browser for some servers.
  await call(peer.navigate("about:blank"));
  return { call, close: () => client.close() };
}

/** One round on one page for one server: navigate, snapshot, type (twice where it fills), snapshot, click. */
async function round(peer: Peer, call: Call, page: Page, first: boolean, truth: Map<string, Clickable[]>, res: PeerResult): Promise<void> {
  const [nav, navMs] = await call(peer.navigate(page.url));
  if (nav.isError) throw new Error(`${peer.name}: navigate ${page.url}: ${textOf(nav)}`);
  res.ms.navigate.push(navMs);
  const [snap, snapMs] = await call(peer.snapshot);
  res.ms.snapshot.push(snapMs);
  const text = textOf(snap);
  const entries = refTexts(text, peer.ref);
  if (process.env.BENCH_DEBUG) console.error(peer.name, page.url, text.slice(0, 600), entries.slice(0, 5));
  if (first) {
    res.tokens.set(page.url, encode(text).length);
    const clickables = truth.get(page.url) ?? [];
    res.reachable.set(page.url, [clickables.filter((c) => refFor(entries, c.names) !== undefined).length, clickables.length]);
    for (const c of clickables) if (refFor(entries, c.names) === undefined) res.missing.push(`${page.label}: ${c.tag} "${c.names[0]}"`);
  }
  const field = refFor(entries, [page.type]);
  if (field) {
    const [typed, ms] = await call(peer.type(field, page.type, "release notes"));
    if (!typed.isError) res.ms.type.push(ms);
    if (!typed.isError) res.typeByPage.set(page.label, [...(res.typeByPage.get(page.label) ?? []), ms]);
    if (!typed.isError && !peer.typeByKey) res.ms.typeByKey.push(ms);
    if (!typed.isError && peer.typeByKey) {
      const [keyed, keyMs] = await call(peer.typeByKey(field, page.type, "release notes"));
      if (!keyed.isError) res.ms.typeByKey.push(keyMs);
    }
  }
  // The click target, from a fresh snapshot where typing may have changed the refs.
  const after = refTexts(textOf((await call(peer.snapshot))[0]), peer.ref);
  const target = refFor(after, [page.click]);
  if (target) {
    const [clicked, ms] = await call(peer.click(target, page.click));
    if (!clicked.isError) res.ms.click.push(ms);
  }
}

const truth = await groundTruth();
const list = peers(chromium);
const results = new Map<string, PeerResult>(list.map((p) => [p.name, { tokens: new Map(), reachable: new Map(), ms: { navigate: [], snapshot: [], type: [], typeByKey: [], click: [] }, typeByPage: new Map(), missing: [] }]));
// Every server is up at once and they take turns round by round (the order rotating), so a
// burst of load from elsewhere on the machine falls on all of them rather than on one.
const conns: { call: Call; close: () => Promise<void> }[] = [];
try {
  for (const peer of list) {
    process.stderr.write(`starting ${peer.name}…\n`);
    conns.push(await connect(peer));
  }
  const run = (i: number, page: Page, r: number) => round(list[i]!, conns[i]!.call, page, r === 0, truth, results.get(list[i]!.name)!);
  if (sequential) {
    for (let i = 0; i < list.length; i++) for (const page of pages) for (let r = 0; r < rounds; r++) await run(i, page, r);
  } else {
    let turn = 0;
    for (const page of pages) {
      for (let r = 0; r < rounds; r++, turn++) {
        for (let k = 0; k < list.length; k++) await run((k + turn) % list.length, page, r);
      }
    }
  }
} finally {
  for (const c of conns) await c.close().catch(() => undefined);
}
const [baton, pw, cdt] = list.map((p) => results.get(p.name)!);

console.log(`\nSnapshot responses (tokens, o200k_base; refs for the visible clickable elements, from the live page), Chromium ${chromium}\n`);
console.log("| page | Baton | Playwright MCP | Chrome DevTools MCP | Baton / Playwright | clickables with a ref: Baton | Playwright | DevTools |");
console.log("|---|---|---|---|---|---|---|---|");
let sums = [0, 0, 0];
for (const p of pages) {
  const t = [baton!, pw!, cdt!].map((r) => r.tokens.get(p.url) ?? 0);
  sums = sums.map((s, i) => s + t[i]!);
  const reach = [baton!, pw!, cdt!].map((r) => r.reachable.get(p.url)!).map(([a, b]) => `${a}/${b}`);
  console.log(`| ${p.label} | ${t[0]} | ${t[1]} | ${t[2]} | ${(t[0]! / t[1]!).toFixed(2)} | ${reach.join(" | ")} |`);
}
console.log(`| all pages | ${sums[0]} | ${sums[1]} | ${sums[2]} | ${(sums[0]! / sums[1]!).toFixed(2)} | | | |`);

console.log(`\nLatency per tool call, p50 ms over ${rounds} rounds × ${pages.length} pages (n per cell in brackets; servers ${sequential ? "one after another" : "taking turns"})\n`);
console.log("| tool | Baton | Playwright MCP | Chrome DevTools MCP | Baton / Playwright |");
console.log("|---|---|---|---|---|");
for (const tool of ["navigate", "snapshot", "type", "typeByKey", "click"] as const) {
  const m = [baton!, pw!, cdt!].map((r) => r.ms[tool]);
  const label = tool === "typeByKey" ? "type, a key event per character (Baton: its one type call, key by key only on mail; Playwright `slowly`; DevTools `type_text`)" : tool;
  console.log(`| ${label} | ${p50(m[0]!).toFixed(0)} (${m[0]!.length}) | ${p50(m[1]!).toFixed(0)} (${m[1]!.length}) | ${p50(m[2]!).toFixed(0)} (${m[2]!.length}) | ${(p50(m[0]!) / p50(m[1]!)).toFixed(2)} |`);
}
console.log(`\ntype, p50 ms per page (${rounds} calls each): Baton / Playwright MCP / Chrome DevTools MCP\n`);
for (const p of pages) {
  const m = [baton!, pw!, cdt!].map((r) => r.typeByPage.get(p.label) ?? []);
  console.log(`- ${p.label}: ${m.map((x) => p50(x).toFixed(0)).join(" / ")} (${(p50(m[0]!) / p50(m[1]!)).toFixed(2)})`);
}
if (baton!.missing.length > 0) console.log(`\nClickable elements Baton's snapshot gives no ref:\n${baton!.missing.map((m) => `- ${m}`).join("\n")}`);
await site.close();
await fixtures.close();
rmSync(workDir, { recursive: true, force: true });
