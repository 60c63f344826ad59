/**
 * What a step summary says about a tool's result, and where a result says the page is. The
 * context block sits outside every fence, so a result that carries page text (a browser tool's)
 * or memory text (the agent may have saved it from a page) is described there mechanically —
 * how it came out, the page's origin and path, how much of each thing it returned — and never
 * quoted: a page's title or text reaches the model only inside the latest step's fence.
 */
import { isPageTool, memoryTool } from "./page-data.js";

type Json = Record<string, unknown>;

function objectOf(v: unknown): Json | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;
}

function parsed(output: string): Json | undefined {
  try {
    return objectOf(JSON.parse(output));
  } catch {
    return undefined;
  }
}

const longestPath = 100;

/**
 * A page's place as a summary may show it: origin and path of an http(s) URL (the URL parser
 * percent-encodes spaces, quotes and angle brackets in a path, so no marker survives it), the
 * scheme alone for anything else (`about:`, `data:` — whose "path" is page content), "" when
 * it does not parse.
 */
export function pageLocation(url: string): string {
  // Most action results name no page; the parser would throw (and build a stack) for each.
  if (!url) return "";
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return u.href === "about:blank" ? u.href : u.protocol;
  const path = u.pathname.length > longestPath ? `${u.pathname.slice(0, longestPath - 1)}…` : u.pathname;
  return `${u.origin}${path}`;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/**
 * The page a browser tool's result says the agent is on: the URL after an action, the page's
 * own, the tab opened or switched to, or the active one of a tab list; "" when it names none.
 */
export function resultPageUrl(result: Json): string {
  const tabs = Array.isArray(result.tabs) ? result.tabs.map(objectOf) : [];
  const active = str(result.active_tab_id);
  return (
    str(objectOf(result.evidence)?.url) ||
    str(result.url) ||
    str(objectOf(result.tab)?.url) ||
    str(tabs.find((t) => t && active && t.tab_id === active)?.url)
  );
}

/** The page URL in a browser tool's output (its model JSON); "" for an error or none. */
export function outputPageUrl(output: string): string {
  const result = parsed(output);
  return result && !("error" in result) ? resultPageUrl(result) : "";
}

/** Counts and flags of a result, never its text: "text 3400 chars", "3 links", "navigated". */
function shape(result: Json): string[] {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(result)) {
    if (k === "url" || k === "title" || k.endsWith("_id")) continue;
    if (typeof v === "string") parts.push(`${k} ${v.length} chars`);
    else if (Array.isArray(v)) parts.push(`${v.length} ${k}`);
    else if (typeof v === "number") parts.push(`${k} ${v}`);
    else if (v === true) parts.push(k);
  }
  const evidence = objectOf(result.evidence);
  if (evidence) {
    if (evidence.navigated === true) parts.push("navigated");
    if (evidence.dialog) parts.push("a dialog");
    if (evidence.new_tab_id) parts.push("a new tab");
    for (const k of ["refs_added", "refs_removed"]) if (Array.isArray(evidence[k])) parts.push(`${(evidence[k] as unknown[]).length} ${k.replace("_", " ")}`);
  }
  return parts;
}

/** An error's code, never its message (which may quote the page). */
function errorCode(result: Json): string | undefined {
  const error = objectOf(result.error);
  return error ? `error ${str(error.code).replace(/[^\w-]/g, "") || "unknown"}` : undefined;
}

/**
 * A mechanical summary of one tool result for the context block: for a browser tool or a memory
 * search, how it came out and what it returned, counted (`ok at https://shop.example/cart;
 * navigated, 3 refs added`, `3 records, 1 pinned`, `error stale_ref`); for any other tool (the
 * user's answer, a client's own tool, the backend's) the result itself, which `clip` shortens.
 */
export function resultSummary(tool: string, output: string | undefined): { text: string; quoted: boolean } {
  if (output === undefined) return { text: "no result", quoted: false };
  if (!isPageTool(tool) && tool !== memoryTool) return { text: output, quoted: true };
  const result = parsed(output);
  if (!result) return { text: `${output.length} chars of text`, quoted: false };
  const failed = errorCode(result);
  if (failed) return { text: failed, quoted: false };
  if (tool === memoryTool) {
    const records = Array.isArray(result.records) ? result.records.map(objectOf) : [];
    const pinned = records.filter((r) => r?.pinned === true).length;
    return { text: `${records.length} records${pinned ? `, ${pinned} pinned` : ""}`, quoted: false };
  }
  const at = pageLocation(resultPageUrl(result));
  const parts = shape(result);
  return { text: `ok${at ? ` at ${at}` : ""}${parts.length ? `; ${parts.join(", ")}` : ""}`, quoted: false };
}
