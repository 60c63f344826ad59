/**
 * A Node integrator's whole agent in one file: launch Chromium, open a page with the engine, and
 * let a Baton backend drive it through `runTask`. Every client-side tool is the engine's; the
 * integrator supplies only `ask_user` (here: answered from a table).
 *
 *   BATON_URL=http://127.0.0.1:8787 BATON_TOKEN=… npx tsx examples/headless/main.ts "Find the docs link" https://example.com
 */
import { toolCatalog } from "@baton/gen/baton/v1/tools_baton";
import { createBatonClient, type RunEvent, runTask, type TaskOutcome } from "@baton/sdk/client";
import { engineHandlers } from "@baton/sdk/engine";
import { launchChromium, openPage, WebSocketTransport } from "@baton/sdk/node";
import { engineProbe } from "@baton/sdk/script";

/** Options of {@link runHeadless}. */
export interface HeadlessOptions {
  readonly backendUrl: string;
  readonly token: string;
  readonly task: string;
  readonly startUrl?: string;
  /** "provider:model", or "script:/path/file.json" for a scripted run. */
  readonly model?: string;
  /** Answers for ask_user, by question substring. */
  readonly answers?: Readonly<Record<string, string>>;
  readonly onEvent?: (e: RunEvent) => void;
}

/** Runs one task headless and returns how it ended, with the final page URL. */
export async function runHeadless(o: HeadlessOptions): Promise<TaskOutcome & { finalUrl: string }> {
  const browser = await launchChromium();
  const transport = await WebSocketTransport.connect(browser.wsEndpoint);
  try {
    const engine = await openPage(transport);
    const client = createBatonClient({ baseUrl: o.backendUrl, token: o.token });
    const outcome = await runTask(client, {
      task: o.task,
      ...(o.startUrl ? { startUrl: o.startUrl } : {}),
      ...(o.model ? { model: o.model } : {}),
      handlers: {
        ...engineHandlers(engine),
        askUser: async ({ question }) => {
          const hit = Object.entries(o.answers ?? {}).find(([q]) => question.includes(q));
          return { answer: hit?.[1] ?? "I don't know." };
        },
      },
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
    });
    const finalUrl = await engineProbe(engine).url();
    return { ...outcome, finalUrl };
  } finally {
    await transport.close();
    await browser.close();
  }
}

const isMain = process.argv[1]?.endsWith("headless/main.ts");
if (isMain) {
  const [task, startUrl] = process.argv.slice(2);
  const backendUrl = process.env.BATON_URL;
  const token = process.env.BATON_TOKEN;
  if (!task || !backendUrl || !token) {
    console.error('usage: BATON_URL=… BATON_TOKEN=… tsx examples/headless/main.ts "<task>" [start-url]');
    process.exit(2);
  }
  const outcome = await runHeadless({
    backendUrl,
    token,
    task,
    ...(startUrl ? { startUrl } : {}),
    onEvent: (e) => {
      if (e.type === "tool_start") console.log(`→ ${e.tool.name} ${JSON.stringify(e.call.tool.value)}`);
      if (e.type === "text") console.log(e.text);
    },
  });
  console.log(`${outcome.status}: ${outcome.answer || outcome.reason} (${toolCatalog.tools.done.name})`);
  process.exit(outcome.status === "completed" ? 0 : 1);
}
