/**
 * Asking Chrome's built-in model about the page in a tab: the page read through the DOM agent
 * (`chrome.scripting`, so no debugger bar for a question), as the `extract` tool returns it, fenced
 * as page data, then the question. Loaded by the panel only when a question is asked.
 */
import { create } from "@bufbuild/protobuf";
import { BuiltInProvider, type PageExchange, pageQuestion, ProviderError, promptTooLong } from "@baton/backend/built-in-model";
import { ExtractParamsSchema, ExtractResultSchema } from "@baton/gen/baton/v1/descriptors";
import { ExtractFormat } from "@baton/gen/baton/v1/tools_pb";
import { toModelJson } from "@baton/sdk/contract";
import { DomEngine, domHandlers } from "@baton/sdk/engine/dom";
import { scriptingRunner } from "../run/dom-runner.js";

/**
 * How much of the page's text the model gets: its context window holds a few thousand tokens, so
 * a long page is cut (the model is told it was); a prompt that still does not fit is asked again
 * with less of the page.
 */
const pageBudgets = [8_000, 3_000] as const;

/** What {@link askAboutPage} needs. */
export interface PageAsk {
  readonly tabId: number;
  readonly question: string;
  readonly earlier: readonly PageExchange[];
  readonly signal: AbortSignal;
  /** Each piece of the answer as the model writes it. */
  readonly onText: (delta: string) => void;
}

/** The page's text, as the model reads the `extract` tool's result. */
async function readPage(tabId: number, maxChars: number): Promise<string> {
  const engine = new DomEngine(scriptingRunner(tabId));
  const result = await domHandlers(engine).extract(create(ExtractParamsSchema, { format: ExtractFormat.TEXT, maxChars }), undefined);
  return JSON.stringify(toModelJson(ExtractResultSchema, create(ExtractResultSchema, result)));
}

/** Asks the built-in model a question about the tab's page; resolves with the whole answer. */
export async function askAboutPage(a: PageAsk): Promise<string> {
  for (const maxChars of pageBudgets) {
    const page = await readPage(a.tabId, maxChars);
    const request = pageQuestion({ page, question: a.question, earlier: a.earlier, signal: a.signal, onStream: (d) => d.kind === "text" && a.onText(d.delta) });
    try {
      return (await new BuiltInProvider().generate(request)).text;
    } catch (e) {
      const shorter = e instanceof ProviderError && e.status === promptTooLong && maxChars !== pageBudgets.at(-1);
      if (!shorter) throw e;
    }
  }
  throw new Error("unreachable: the last budget rethrows");
}
