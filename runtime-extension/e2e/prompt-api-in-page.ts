/**
 * Bundled by esbuild and evaluated in the side panel's page (built-in-model.test.ts): Chrome's
 * `LanguageModel` replaced by the Prompt API stand-in, which needs the page's own user activation
 * to start a download and answers from the page text it is given. Its state goes on `globalThis`
 * for the test to read and to change.
 */
import { promptApiStandIn } from "@baton/backend/testing/prompt-api-stand-in";
import type { LanguageModelMessage } from "@baton/backend/built-in-model";

/** What the stand-in says: the page's title and the priced items in its text (or the text's start), read inside the page-data fence. */
function answerFromPage(messages: readonly LanguageModelMessage[]): string {
  const last = messages.at(-1)?.content;
  const prompt = typeof last === "string" ? last : "";
  const fenced = /<page-data fence="[0-9a-f]+" tool="extract">\n([\s\S]*)\n<\/page-data fence=/.exec(prompt)?.[1];
  if (!fenced) return "I was not given the page.";
  const page = JSON.parse(fenced) as { title?: string; content?: string };
  const text = (page.content ?? "").replace(/\s+/g, " ").trim();
  const priced = [...text.matchAll(/([A-Z][a-z]+ [a-z]+) (€\d+)/g)].map((m) => `${m[1]} (${m[2]})`);
  return priced.length ? `${page.title ?? "This page"} sells ${priced.join(", ")}.` : `${page.title ?? "This page"}: ${text.slice(0, 240)}`;
}

const { LanguageModel, state } = promptApiStandIn({
  availability: "downloadable",
  downloadSteps: [0, 0.42, 1],
  downloadStepMs: 4_000,
  chunkDelayMs: 40,
  userActivation: () => navigator.userActivation.isActive,
  answer: answerFromPage,
});

Object.assign(globalThis, { LanguageModel, __promptApi: state });
