/**
 * Script files for the `script` provider: a model's turns written down, for tests, the CLI and
 * evals. Tool-call targets may be written as `{ "role": "button", "name": "Save" }` instead of a
 * ref; they are resolved against the latest snapshot the "model" has seen. `expect` lists what
 * must hold at the end of the run.
 */

/** One tool call of a scripted turn. `args` may be a raw string, to script malformed JSON. */
export interface ScriptCall {
  readonly name: string;
  readonly args?: Readonly<Record<string, unknown>> | string;
}

/** One scripted model turn. */
export interface ScriptTurn {
  /** Text the model says (may carry <goal>, <non-task> and <context> tags). */
  readonly text?: string;
  /** Tool calls, run in order. */
  readonly calls?: readonly ScriptCall[];
  /** A micro summary, sent as `<context>…</context>` after the text. */
  readonly context?: string;
  /** A macro summary, sent only when the prompt asks to fold. */
  readonly fold?: string;
  /** Simulated model latency. */
  readonly delayMs?: number;
  /** Fail this model call with an HTTP-like status instead of answering. */
  readonly error?: { readonly status: number; readonly message?: string };
  /** Reported usage; estimated from characters when absent. */
  readonly usage?: { readonly input?: number; readonly output?: number; readonly cached?: number };
  /**
   * What held after this turn's calls when the script was recorded (`text`, `url`, `js`;
   * `answer` is for the whole script only). A replay (`baton run --script … --heal`) checks it
   * after the turn; the script provider ignores it.
   */
  readonly expect?: ScriptExpectations;
}

/** What must hold when the run ends; a run that breaks one fails with the reason. */
export interface ScriptExpectations {
  /** Texts that must be visible on the final page. */
  readonly text?: readonly string[];
  /** A regular expression the final page URL must match. */
  readonly url?: string;
  /** JavaScript expressions evaluated in the final page; each must be truthy. */
  readonly js?: readonly string[];
  /** A substring the final answer must contain. */
  readonly answer?: string;
}

/** A script: turns played in order (one per model call), and expectations. */
export interface ScriptFile {
  readonly turns: readonly ScriptTurn[];
  /** After the last turn, replay from this index forever (benchmarks); otherwise the run ends. */
  readonly loopFrom?: number;
  readonly expect?: ScriptExpectations;
}

/** A script file that cannot be used, with where and why. */
export class ScriptFileError extends Error {
  override readonly name = "ScriptFileError";
}

const TURN_KEYS = new Set(["text", "calls", "context", "fold", "delayMs", "error", "usage", "expect"]);
const EXPECT_KEYS = new Set(["text", "url", "js", "answer"]);

function fail(source: string, path: string, message: string): never {
  throw new ScriptFileError(`${source}: ${path}: ${message}`);
}

function stringList(source: string, path: string, v: unknown): readonly string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) fail(source, path, "must be a list of strings");
  return v as string[];
}

/**
 * Parses and checks a script file (JSON). Throws a {@link ScriptFileError} naming the file, the
 * path inside it (`turns[2].calls[0].name`) and what is wrong.
 */
export function parseScriptFile(json: string, source = "script"): ScriptFile {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    // The parser's message quotes the text around the fault; a script may sit beside files that
    // must not be echoed, so only the position is told.
    const at = /position (\d+)/.exec(e instanceof Error ? e.message : "")?.[1];
    fail(source, "$", at === undefined ? "not valid JSON" : `not valid JSON (at character ${at})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail(source, "$", 'must be an object with "turns"');
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!["turns", "loopFrom", "expect"].includes(k)) fail(source, k, 'unknown key (known: "turns", "loopFrom", "expect")');
  }
  if (!Array.isArray(o.turns) || o.turns.length === 0) fail(source, "turns", "must be a non-empty list of turns");
  o.turns.forEach((t, i) => {
    const at = `turns[${i}]`;
    if (typeof t !== "object" || t === null || Array.isArray(t)) fail(source, at, "must be an object");
    for (const k of Object.keys(t)) {
      if (!TURN_KEYS.has(k)) fail(source, `${at}.${k}`, `unknown key (known: ${[...TURN_KEYS].join(", ")})`);
    }
    const turn = t as Record<string, unknown>;
    if (turn.text !== undefined && typeof turn.text !== "string") fail(source, `${at}.text`, "must be a string");
    if (turn.calls !== undefined) {
      if (!Array.isArray(turn.calls)) fail(source, `${at}.calls`, "must be a list");
      turn.calls.forEach((c: unknown, j: number) => {
        const cat = `${at}.calls[${j}]`;
        if (typeof c !== "object" || c === null || typeof (c as ScriptCall).name !== "string") {
          fail(source, cat, 'must be an object with a "name" (the tool) and optional "args"');
        }
        const args = (c as ScriptCall).args;
        if (args !== undefined && typeof args !== "string" && (typeof args !== "object" || args === null || Array.isArray(args))) {
          fail(source, `${cat}.args`, "must be an object (or a raw string, to script malformed arguments)");
        }
      });
    }
    if (turn.text === undefined && turn.calls === undefined && turn.error === undefined) {
      fail(source, at, 'needs "text", "calls" or "error"');
    }
    if (turn.expect !== undefined) checkExpect(source, `${at}.expect`, turn.expect);
  });
  if (o.loopFrom !== undefined && (typeof o.loopFrom !== "number" || o.loopFrom < 0 || o.loopFrom >= o.turns.length)) {
    fail(source, "loopFrom", `must be a turn index from 0 to ${o.turns.length - 1}`);
  }
  if (o.expect !== undefined) checkExpect(source, "expect", o.expect);
  return o as unknown as ScriptFile;
}

/** Checks an `expect` object (the script's, or a turn's) at `path`. */
function checkExpect(source: string, path: string, value: unknown): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(source, path, "must be an object");
  const e = value as Record<string, unknown>;
  for (const k of Object.keys(e)) {
    if (!EXPECT_KEYS.has(k)) fail(source, `${path}.${k}`, `unknown key (known: ${[...EXPECT_KEYS].join(", ")})`);
  }
  stringList(source, `${path}.text`, e.text);
  stringList(source, `${path}.js`, e.js);
  if (e.url !== undefined) {
    if (typeof e.url !== "string") fail(source, `${path}.url`, "must be a regular expression as a string");
    try {
      new RegExp(e.url);
    } catch (err) {
      fail(source, `${path}.url`, `is not a valid regular expression (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  if (e.answer !== undefined && typeof e.answer !== "string") fail(source, `${path}.answer`, "must be a string");
}

/** Reads the final page for {@link checkExpectations}. */
export interface PageProbe {
  /** The page URL. */
  url(): Promise<string>;
  /** The page's visible text. */
  text(): Promise<string>;
  /** Evaluates an expression in the page and returns its value. */
  evaluate(expression: string): Promise<unknown>;
}

/**
 * Checks a script's expectations against the final page and answer. Returns one line per
 * broken expectation (empty when all hold); an expression that throws counts as broken.
 */
export async function checkExpectations(
  expect: ScriptExpectations | undefined,
  page: PageProbe,
  answer: string,
): Promise<string[]> {
  if (!expect) return [];
  const broken: string[] = [];
  if (expect.text?.length) {
    const text = (await page.text()).replace(/\s+/g, " ");
    for (const t of expect.text) {
      if (!text.includes(t.replace(/\s+/g, " "))) broken.push(`expected text ${JSON.stringify(t)} on the page, not found`);
    }
  }
  if (expect.url !== undefined) {
    const url = await page.url();
    if (!new RegExp(expect.url).test(url)) broken.push(`expected the URL to match /${expect.url}/, but it is ${url}`);
  }
  for (const js of expect.js ?? []) {
    try {
      const v = await page.evaluate(js);
      if (!v) broken.push(`expected \`${js}\` to be truthy in the page, got ${JSON.stringify(v) ?? String(v)}`);
    } catch (e) {
      broken.push(`\`${js}\` threw in the page: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (expect.answer !== undefined && !answer.includes(expect.answer)) {
    broken.push(`expected the answer to contain ${JSON.stringify(expect.answer)}, got ${JSON.stringify(answer.slice(0, 200))}`);
  }
  return broken;
}
