/**
 * JSON-in-text decisions, for servers without native tool calling, hardened because small
 * models' JSON is often broken: a grammar-aware balanced-bracket walker, a bounded string-aware repair, a
 * decision-shape gate, multi-root rejection, and a reason for every failure so the retry
 * reminder can tell the model what went wrong.
 */

/** A decision the model made in JSON. */
export interface Decision {
  /** Text for the user (may carry <goal>/<context> tags). */
  readonly text: string;
  readonly calls: readonly { readonly name: string; readonly arguments: string }[];
}

/** Why a reply could not be used. */
export type JsonFailure = "truncated" | "malformed" | "blocked" | "shape" | "multiple";

/** The parse outcome. */
export type DecisionParse =
  | { readonly ok: true; readonly decision: Decision; readonly repaired: boolean }
  | { readonly ok: false; readonly failure: JsonFailure; readonly detail: string };

/** A top-level JSON object found in text, and whether it closed. */
interface Root {
  readonly text: string;
  readonly closed: boolean;
}

/**
 * Finds top-level `{…}` objects in free text. Tracks string state (quotes and escapes), so a
 * brace inside a string never opens or closes anything. An object still open at the end of
 * the text is returned with `closed: false`.
 */
export function findRoots(text: string): Root[] {
  const roots: Root[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      if (depth > 0) inString = true;
    } else if (ch === "{" || ch === "[") {
      if (depth === 0) {
        if (ch === "[") continue; // decisions are objects; a bare list in prose is not one
        start = i;
      }
      depth++;
    } else if ((ch === "}" || ch === "]") && depth > 0) {
      depth--;
      if (depth === 0) roots.push({ text: text.slice(start, i + 1), closed: true });
    }
  }
  if (depth > 0 && start >= 0) roots.push({ text: text.slice(start), closed: false });
  return roots;
}

/**
 * Repairs the common defects of model JSON, string-aware and bounded: trailing commas, an
 * unterminated string, and unclosed brackets (closed in the right order). Returns undefined
 * when the text still does not parse.
 */
export function repairJson(text: string, maxChars = 200_000): unknown {
  if (text.length > maxChars) return undefined;
  let out = "";
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      out += ch;
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      else if (ch === "\n") out = `${out.slice(0, -1)}\\n`;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") stack.push("}");
    else if (ch === "[") stack.push("]");
    else if (ch === "}" || ch === "]") {
      out = out.replace(/,\s*$/, "");
      if (stack.at(-1) === ch) stack.pop();
      else continue; // a stray closer is dropped rather than guessed at
    }
    out += ch;
  }
  if (inString) out += escaped ? '\\"' : '"';
  out = out.replace(/,\s*$/, "").replace(/:\s*$/, ": null");
  while (stack.length) out += stack.pop();
  try {
    return JSON.parse(out);
  } catch {
    return undefined;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** The decision-shape gate: `{text?, calls?: [{tool|name, args|arguments}]}` or `{tool, args}`. */
export function asDecision(v: unknown): Decision | undefined {
  if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const text = str(o.text) ?? str(o.message) ?? str(o.answer) ?? "";
  const rawCalls = Array.isArray(o.calls) ? o.calls : Array.isArray(o.tool_calls) ? o.tool_calls : str(o.tool) || str(o.name) ? [o] : [];
  const calls: { name: string; arguments: string }[] = [];
  for (const c of rawCalls) {
    if (!c || typeof c !== "object") return undefined;
    const r = c as Record<string, unknown>;
    const name = str(r.tool) ?? str(r.name);
    if (!name) return undefined;
    const args = r.args ?? r.arguments ?? {};
    calls.push({ name, arguments: typeof args === "string" ? args : JSON.stringify(args) });
  }
  if (!text && calls.length === 0) return undefined;
  return { text, calls };
}

/**
 * Reads a decision out of a model reply. `finish` is the server's finish reason ("length"
 * means the reply was cut off, "content_filter" that it was blocked).
 */
export function parseDecision(reply: string, finish = ""): DecisionParse {
  if (finish === "content_filter") return { ok: false, failure: "blocked", detail: "the reply was blocked by the server's content filter" };
  const body = reply.replace(/```(?:json)?/gi, "");
  const roots = findRoots(body);
  if (roots.length === 0) {
    if (finish === "length") return { ok: false, failure: "truncated", detail: "the reply was cut off before any JSON" };
    if (!body.trim()) return { ok: false, failure: "blocked", detail: "the reply was empty" };
    return { ok: false, failure: "malformed", detail: "the reply contains no JSON object" };
  }
  const decisions: { d: Decision; repaired: boolean }[] = [];
  let firstProblem: DecisionParse | undefined;
  for (const root of roots) {
    let value: unknown;
    let repaired = false;
    try {
      value = JSON.parse(root.text);
    } catch {
      value = repairJson(root.text);
      repaired = true;
    }
    if (value === undefined) {
      firstProblem ??= root.closed
        ? { ok: false, failure: "malformed", detail: "the JSON object does not parse" }
        : { ok: false, failure: "truncated", detail: "the JSON object was cut off" };
      continue;
    }
    const d = asDecision(value);
    if (!d) {
      firstProblem ??= { ok: false, failure: "shape", detail: 'the JSON object is not a decision ({"text": …, "calls": [{"tool": …, "args": {…}}]})' };
      continue;
    }
    decisions.push({ d, repaired: repaired || !root.closed });
  }
  if (decisions.length > 1) return { ok: false, failure: "multiple", detail: `the reply contains ${decisions.length} decisions; send exactly one` };
  const only = decisions[0];
  if (only) return { ok: true, decision: only.d, repaired: only.repaired };
  return firstProblem ?? { ok: false, failure: "malformed", detail: "no usable JSON object" };
}

/** The reminder sent after a failed reply: it says why, so the model can fix that. */
export function retryReminder(failure: JsonFailure, detail: string): string {
  const why: Record<JsonFailure, string> = {
    truncated: "was cut off before the JSON ended; keep it shorter (fewer words in text, one call at a time)",
    malformed: "was not valid JSON",
    blocked: "was empty or blocked",
    shape: "was JSON but not a decision",
    multiple: "contained more than one JSON decision",
  };
  return `Your last reply could not be used: it ${why[failure]} (${detail}). Reply again with exactly one JSON object and nothing else: {"text": "...", "calls": [{"tool": "<tool name>", "args": {...}}]}.`;
}

/** The system-prompt section that replaces native tools in JSON mode. */
export function jsonToolInstructions(tools: readonly { name: string; description: string; parameters: unknown }[]): string {
  const lines = tools.map((t) => `- ${t.name}: ${t.description}\n  parameters: ${JSON.stringify(t.parameters)}`);
  return `You cannot call tools natively. Reply with exactly one JSON object and nothing else:
{"text": "<what you tell the user, with any <goal>/<context> tags>", "calls": [{"tool": "<tool name>", "args": {<parameters>}}]}
Use an empty "calls" list to only talk to the user. Tools:
${lines.join("\n")}`;
}
