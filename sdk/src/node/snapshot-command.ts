import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { Engine } from "../engine/engine.js";
import { refsInText } from "../contract/index.js";
import { paginate } from "../engine/snapshot/render-text.js";
import { decideUrl, openUrlPolicy } from "../policy/url-policy.js";
import { ChromiumNotFoundError, chromiumMissingExitCode, ensureChromium } from "./find-chromium.js";
import { launchChromium, type LaunchedChromium } from "./launch-chromium.js";
import { openPage } from "./open-page.js";
import { WebSocketTransport } from "./ws-transport.js";

/** Where the command writes. */
export interface CommandOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

interface Args {
  url: string;
  json: boolean;
  offset: number;
  maxChars: number;
  screenshot: string | undefined;
  viewport: { width: number; height: number };
  cdpUrl: string | undefined;
}

const usage =
  "usage: baton snapshot <url> [--json] [--offset N] [--max-chars N] [--screenshot FILE] [--viewport WxH] [--cdp-url URL]";

function parseArgs(argv: readonly string[]): Args | string {
  const a: Args = { url: "", json: false, offset: 0, maxChars: 12_000, screenshot: undefined, viewport: { width: 1280, height: 800 }, cdpUrl: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string | undefined => argv[++i];
    const int = (name: string, min: number): number | string => {
      const v = Number(value());
      return Number.isInteger(v) && v >= min ? v : `${name} needs an integer ≥ ${min}`;
    };
    if (arg === "--json") a.json = true;
    else if (arg === "--offset") {
      const v = int("--offset", 0);
      if (typeof v === "string") return v;
      a.offset = v;
    } else if (arg === "--max-chars") {
      const v = int("--max-chars", 1);
      if (typeof v === "string") return v;
      a.maxChars = v;
    } else if (arg === "--screenshot") {
      a.screenshot = value();
      if (!a.screenshot) return "--screenshot needs a file";
    } else if (arg === "--viewport") {
      const m = /^(\d+)x(\d+)$/.exec(value() ?? "");
      if (!m) return "--viewport needs WxH, such as 1280x800";
      a.viewport = { width: Number(m[1]), height: Number(m[2]) };
    } else if (arg === "--cdp-url") {
      a.cdpUrl = value();
      if (!a.cdpUrl) return "--cdp-url needs a ws:// URL";
    } else if (arg.startsWith("--")) return `unknown option ${arg}`;
    else if (!a.url) a.url = arg;
    else return `unexpected argument ${arg}`;
  }
  if (!a.url) return "missing <url>";
  // The rule navigate and open_tab follow: the page is an http(s) page (or about:blank), never
  // a local file or one of the browser's own pages.
  const d = decideUrl(openUrlPolicy, a.url, "page");
  if (!d.allow) return d.rule === "invalid" ? `not a URL: ${a.url}` : `cannot open ${a.url}: ${d.reason}`;
  return a;
}

/**
 * `baton snapshot <url>`: opens the URL in Chromium (launched, or an existing one via
 * `--cdp-url`), takes one snapshot and prints its text, or JSON with refs, boxes and stats.
 * Returns the process exit code.
 */
export async function snapshotCommand(argv: string[], out: CommandOutput): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === "string") {
    out.stderr(`${args}\n${usage}\n`);
    return 2;
  }
  let browser: LaunchedChromium | undefined;
  let transport: WebSocketTransport | undefined;
  let engine: Engine | undefined;
  try {
    if (!args.cdpUrl) browser = await launchChromium({ executablePath: ensureChromium().path });
    transport = await WebSocketTransport.connect(args.cdpUrl ?? browser!.wsEndpoint);
    engine = await openPage(transport, { viewport: args.viewport });
    const nav = await engine.page.send<{ errorText?: string }>("Page.navigate", { url: args.url }, engine.page.rootId, 30_000);
    if (nav.errorText) {
      out.stderr(`could not open ${args.url}: ${nav.errorText}\n`);
      return 1;
    }
    await engine.evidence.after(engine.evidence.mark());
    const started = performance.now();
    const snap = await engine.pageSnapshot();
    const page = paginate(snap.lines, args.offset, args.maxChars);
    const ms = performance.now() - started;
    if (args.screenshot) {
      const result = await engine.snapshot({ offset: args.offset, maxChars: args.maxChars, includeScreenshot: true });
      const { writeFile } = await import("node:fs/promises");
      await writeFile(args.screenshot, result.screenshot?.data ?? new Uint8Array());
    }
    if (args.json) {
      const onPage = new Set(refsInText(page.text));
      const json = {
        url: snap.url,
        title: snap.title,
        text: page.text,
        ...(page.nextOffset !== undefined ? { nextOffset: page.nextOffset } : {}),
        ...(page.pageOverflow ? { pageOverflow: true } : {}),
        refs: snap.elements
          .filter((e) => onPage.has(e.ref))
          .map((e) => ({
            ref: e.ref,
            role: e.role,
            name: e.name,
            value: e.value,
            frame: e.frameId,
            box: { x: round(e.box.x), y: round(e.box.y), width: round(e.box.width), height: round(e.box.height) },
          })),
        stats: {
          ms: round(ms),
          chars: page.text.length,
          tokens: encode(page.text).length,
          refCount: page.refCount,
          frameCount: snap.frameCount,
        },
      };
      out.stdout(`${JSON.stringify(json, null, 2)}\n`);
    } else {
      out.stdout(`${page.text}\n`);
      if (page.nextOffset !== undefined) out.stdout(`(more: --offset ${page.nextOffset})\n`);
      if (page.pageOverflow) out.stderr("--max-chars is too small for even one element\n");
    }
    return 0;
  } catch (e) {
    if (e instanceof ChromiumNotFoundError) {
      out.stderr(`baton snapshot: ${e.message}\n`);
      return chromiumMissingExitCode;
    }
    out.stderr(`baton snapshot failed: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    if (engine && transport && !transport.closed) {
      await transport.send("Target.closeTarget", { targetId: engine.page.targetId }).catch(() => undefined);
    }
    engine?.dispose();
    await transport?.close().catch(() => undefined);
    await browser?.close();
  }
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
