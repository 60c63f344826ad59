/**
 * The MCP servers the benchmark compares, each on the same Debian Chromium, headless, with a
 * throwaway profile and a 1280×800 viewport, and how to call their snapshot, navigate, click
 * and type tools. Peers are devDependencies, started from node_modules.
 */
import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { batonBin } from "../src/mcp/mcp-testing.js";

/** How the benchmark drives one MCP server. */
export interface Peer {
  readonly name: string;
  readonly command: string;
  readonly args: string[];
  readonly snapshot: { tool: string; args: Record<string, unknown> };
  navigate(url: string): { tool: string; args: Record<string, unknown> };
  click(ref: string, name: string): { tool: string; args: Record<string, unknown> };
  type(ref: string, name: string, text: string): { tool: string; args: Record<string, unknown> };
  /**
   * Typing with a key event per character, when `type` does not already (Playwright MCP's
   * `slowly`, Chrome DevTools MCP's `type_text` into the field `type` focused). Baton's `type`
   * is key by key.
   */
  typeByKey?(ref: string, name: string, text: string): { tool: string; args: Record<string, unknown> };
  /** The ref on a snapshot line, in this server's notation. */
  readonly ref: RegExp;
}

const root = resolve(import.meta.dirname, "../../..");
const bin = (name: string): string => realpathSync(join(root, "node_modules", ".bin", name));

/** Baton, Playwright MCP and Chrome DevTools MCP on the Chromium at `chromium`. */
export function peers(chromium: string): Peer[] {
  return [
    {
      name: "Baton",
      command: process.execPath,
      args: [batonBin, "mcp", "--viewport", "1280x800"],
      snapshot: { tool: "take_snapshot", args: {} },
      navigate: (url) => ({ tool: "navigate", args: { url } }),
      click: (ref) => ({ tool: "click", args: { ref } }),
      type: (ref, _name, text) => ({ tool: "type_text", args: { ref, text } }),
      ref: /^\s*(e\d+) /m,
    },
    {
      name: "Playwright MCP",
      command: process.execPath,
      args: [bin("playwright-mcp"), "--headless", "--isolated", "--no-sandbox", "--browser", "chromium", "--executable-path", chromium, "--viewport-size", "1280x800"],
      snapshot: { tool: "browser_snapshot", args: {} },
      navigate: (url) => ({ tool: "browser_navigate", args: { url } }),
      click: (target, name) => ({ tool: "browser_click", args: { element: name, target } }),
      type: (target, name, text) => ({ tool: "browser_type", args: { element: name, target, text } }),
      typeByKey: (target, name, text) => ({ tool: "browser_type", args: { element: name, target, text, slowly: true } }),
      ref: /\[ref=([a-z0-9]+)\]/,
    },
    {
      name: "Chrome DevTools MCP",
      command: process.execPath,
      args: [
        bin("chrome-devtools-mcp"),
        "--headless",
        "--isolated",
        "--executablePath",
        chromium,
        "--chromeArg=--no-sandbox",
        "--viewport",
        "1280x800",
        "--usageStatistics=false",
        "--performanceCrux=false",
        "--pageIdRouting=false",
      ],
      snapshot: { tool: "take_snapshot", args: {} },
      navigate: (url) => ({ tool: "navigate_page", args: { type: "url", url } }),
      click: (uid) => ({ tool: "click", args: { uid } }),
      type: (uid, _name, text) => ({ tool: "fill", args: { uid, value: text } }),
      typeByKey: (_uid, _name, text) => ({ tool: "type_text", args: { text } }),
      ref: /uid=(\S+)/,
    },
  ];
}
