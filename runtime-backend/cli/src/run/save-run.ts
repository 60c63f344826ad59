import { writeFileSync } from "node:fs";
import { Code, ConnectError } from "@connectrpc/connect";
import type { BatonClient } from "@baton/sdk/client";
import type { Engine } from "@baton/sdk/engine";
import { describeScriptCall, parseScriptFile, perceptionTools, type ScriptExpectations, type ScriptFile, scriptGoal, urlPattern } from "@baton/sdk/script";

/** The visible headings of a snapshot text (`# Welcome back, Ada`). */
function headings(text: string): string[] {
  return [...text.matchAll(/^\s*#{1,6} (.+)$/gm)].map((m) => (m[1] ?? "").trim()).filter(Boolean);
}

/**
 * What held at the end of a run, as a script's expectations: the page's URL (its path, so the
 * script replays on another host or port), up to two of its headings, and the answer.
 */
export async function endExpectations(engine: Engine, answer: string): Promise<ScriptExpectations> {
  const snap = await engine.snapshot({ offset: 0, includeScreenshot: false, includeOffscreen: false });
  const texts = headings(snap.text ?? "").slice(0, 2);
  return { url: urlPattern(snap.url ?? ""), ...(texts.length ? { text: texts } : {}), ...(answer ? { answer } : {}) };
}

/** Writes a script file (pretty JSON, readable and editable). */
export function writeScript(path: string, script: ScriptFile): void {
  writeFileSync(path, `${JSON.stringify(script, null, 2)}\n`);
}

const fence = "```";

/**
 * The URL pattern a saved playbook matches by: the start URL's host, or for a site `--serve`
 * served, its path on any loopback port, since that port was drawn for the one run and the
 * same folder is served on another port next time.
 */
export function startUrlPattern(startUrl: string | undefined, served: boolean): string {
  let url: URL;
  try {
    url = new URL(startUrl ?? "");
  } catch {
    return "";
  }
  return served ? `${url.hostname}:*${url.pathname}` : url.host;
}

/**
 * A script as a playbook: numbered steps a model can follow (so a model-driven run that picks
 * the playbook is guided by it), and the script itself in a fenced JSON block (so
 * `--script playbook:NAME --heal` replays it). Keywords come from the task, the URL pattern
 * from the start URL ({@link startUrlPattern}).
 */
export function scriptPlaybook(name: string, task: string, startUrl: string | undefined, script: ScriptFile, served = false) {
  const steps = script.turns
    .flatMap((t) => (t.calls ?? []).filter((c) => !perceptionTools.has(c.name)))
    .map((c, i) => `${i + 1}. ${describeScriptCall(c)}`);
  const goal = scriptGoal(script) ?? task;
  const instructions = [
    `Steps that completed "${goal}" before (recorded by baton run). Follow them, checking the page as you go; where the page differs, do what the step was meant to do.`,
    ...steps,
    "",
    `The recorded script (replay it without a model: baton run "<task>" --script playbook:${name} --heal):`,
    `${fence}json`,
    JSON.stringify(script),
    fence,
  ].join("\n");
  const keywords = [...new Set(task.toLowerCase().match(/[\p{L}\d]{4,}/gu) ?? [])].slice(0, 8);
  const pattern = startUrlPattern(startUrl, served);
  return { name, description: goal.slice(0, 200), instructions, keywords, urlPatterns: pattern ? [pattern] : [] };
}

/** The script stored in a playbook's instructions, or a clear error. */
export function scriptOfPlaybook(name: string, instructions: string): ScriptFile {
  const m = new RegExp(`${fence}json\\n([\\s\\S]*?)\\n${fence}`).exec(instructions);
  if (!m?.[1]) throw new Error(`the playbook "${name}" holds no script (it was not saved with --save-playbook)`);
  return parseScriptFile(m[1], `playbook ${name}`);
}

/** Saves a playbook: version 1 if new, else the next version. Resolves to its "name@version". */
export async function savePlaybook(client: BatonClient, playbook: ReturnType<typeof scriptPlaybook>): Promise<string> {
  try {
    const r = await client.createPlaybook({ playbook });
    return `${r.playbook?.name}@${r.playbook?.version}`;
  } catch (e) {
    if (ConnectError.from(e).code !== Code.AlreadyExists) throw e;
    const r = await client.updatePlaybook({ playbook });
    return `${r.playbook?.name}@${r.playbook?.version}`;
  }
}
