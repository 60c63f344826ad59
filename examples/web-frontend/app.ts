/**
 * A web page that drives a Baton session over Connect (fetch): the agent panel on the left, the
 * app it works on in a same-origin iframe on the right. The page has no debugger, so the
 * client-side tools run through the SDK's DOM fallback inside the iframe; `ask_user` is
 * answered in the panel. Built with esbuild (see build.ts) and served as static files.
 */
import { createBatonClient, type RunEvent, runTask } from "@baton/sdk/client";
import { DomEngine, type DomRunner, domAgentSource, domHandlers } from "@baton/sdk/engine/dom";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Runs the DOM agent inside the workspace iframe (same origin: installed with a script tag). */
function iframeRunner(frame: HTMLIFrameElement): DomRunner {
  const agent = (): ((op: string, arg: unknown) => unknown) => {
    const win = frame.contentWindow as (Window & { __batonDomAgent?: (op: string, arg: unknown) => unknown }) | null;
    const doc = frame.contentDocument;
    if (!win || !doc) throw new Error("the workspace is not loaded");
    if (!win.__batonDomAgent) {
      const script = doc.createElement("script");
      script.textContent = domAgentSource;
      doc.head.append(script);
      script.remove();
    }
    if (!win.__batonDomAgent) throw new Error("the DOM agent did not install");
    return win.__batonDomAgent;
  };
  return {
    call: async <T>(op: string, arg?: unknown) => (await agent()(op, arg ?? null)) as T,
    url: async () => frame.contentWindow?.location.href ?? "",
  };
}

/** Shows a question in the panel and resolves with the user's answer. */
function ask(question: string): Promise<string> {
  $("question-text").textContent = question;
  $("question").hidden = false;
  return new Promise((resolve) => {
    $("send-answer").onclick = () => {
      $("question").hidden = true;
      resolve($<HTMLInputElement>("answer").value);
    };
  });
}

function describe(e: RunEvent): string | undefined {
  switch (e.type) {
    case "session":
      return `session ${e.session.id}${e.resumed ? " (resumed)" : ""}`;
    case "thinking":
      return "Thinking…";
    case "text":
      return e.text;
    case "tool_start":
      return `${e.tool.title}: ${JSON.stringify(e.call.tool.value, (k, v) => (k === "$typeName" ? undefined : v))}`;
    case "tool_end":
      return e.error ? `  ✗ ${e.error.message}` : `  ✓ ${e.ms} ms`;
    case "approval":
      return `${e.tool.title}: ${e.decision.approved ? "approved" : "denied"}`;
    case "retry":
      return `retrying (${e.error})`;
    case "done":
      return `${e.outcome.status}: ${e.outcome.answer || e.outcome.reason}`;
    default:
      return undefined;
  }
}

async function run(): Promise<void> {
  const log = $("log");
  const status = $("status");
  const stopper = new AbortController();
  $<HTMLButtonElement>("stop").onclick = () => stopper.abort();
  $<HTMLButtonElement>("run").disabled = true;
  $<HTMLButtonElement>("stop").disabled = false;
  status.textContent = "running";
  try {
    const client = createBatonClient({ baseUrl: $<HTMLInputElement>("backend").value, token: $<HTMLInputElement>("token").value });
    const engine = new DomEngine(iframeRunner($<HTMLIFrameElement>("workspace")));
    const outcome = await runTask(client, {
      task: $<HTMLTextAreaElement>("task").value,
      handlers: { ...domHandlers(engine), askUser: async ({ question }) => ({ answer: await ask(question) }) },
      onApproval: ({ tool }) => ({ approved: window.confirm(`Allow "${tool.title}"?`) }),
      signal: stopper.signal,
      onEvent: (e) => {
        const line = describe(e);
        if (line) log.textContent += `${line}\n`;
      },
    });
    status.textContent = outcome.status;
  } catch (e) {
    status.textContent = "error";
    log.textContent += `error: ${e instanceof Error ? e.message : String(e)}\n`;
  } finally {
    $<HTMLButtonElement>("run").disabled = false;
    $<HTMLButtonElement>("stop").disabled = true;
  }
}

$<HTMLButtonElement>("run").onclick = () => void run();
