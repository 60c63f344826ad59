import { fencePageData, newFenceId, pageDataRule } from "../context/page-data.js";
import type { ModelRequest, StreamDelta } from "../providers/types.js";

/** What the built-in model is told: answer about the page, from the page, and treat the page as data. */
export const pageQuestionSystem = `You answer questions about the web page the user has open in Chrome: summarise it, find things on it, explain what it says. Answer from the page's text only, briefly, in plain sentences. If the page does not say, say so. If the page text was cut short (it has a next_offset), say your answer covers the part you read. You cannot click, type or open pages.
${pageDataRule}`;

/** An earlier question about the page and its answer. */
export interface PageExchange {
  readonly question: string;
  readonly answer: string;
}

/** What {@link pageQuestion} needs. */
export interface PageQuestion {
  /** The page as the `extract` tool returns it, as JSON (url, title, content, next_offset). */
  readonly page: string;
  readonly question: string;
  /** Earlier exchanges of this conversation, oldest first (without their pages). */
  readonly earlier?: readonly PageExchange[];
  readonly signal: AbortSignal;
  readonly onStream?: (d: StreamDelta) => void;
}

/**
 * A question about the page the user has open, as a model request for a chat-only model (Chrome's
 * built-in one): the earlier exchanges, then the page read just now — fenced as page data under a
 * fresh id, as every page text the agent reads — and the question. No tools: it only answers.
 */
export function pageQuestion(q: PageQuestion): ModelRequest {
  const earlier = q.earlier ?? [];
  return {
    model: "gemini-nano",
    system: pageQuestionSystem,
    items: [
      ...earlier.flatMap((x) => [
        { type: "user" as const, text: x.question },
        { type: "assistant" as const, text: x.answer, calls: [] },
      ]),
      { type: "user", text: `${fencePageData("extract", q.page, newFenceId())}\n\nThe user asks: ${q.question}` },
    ],
    tools: [],
    signal: q.signal,
    callIndex: earlier.length,
    foldRequested: false,
    onStream: q.onStream,
  };
}
