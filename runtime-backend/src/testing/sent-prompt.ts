/**
 * Reads a request a provider sent to a fake model server, whatever its wire: OpenAI Responses
 * (`instructions`, `input`), Chat Completions (`messages`), Anthropic Messages (`system`,
 * `messages` with `tool_use` / `tool_result` blocks) or Gemini (`systemInstruction`,
 * `contents`). Tests and stand-in models use it to read the prompt the way a model reads it.
 */
import { unfence } from "../context/page-data.js";

interface Part {
  readonly type?: string;
  readonly text?: string;
  readonly name?: string;
  /** Anthropic: a tool result's content; an image's source. */
  readonly content?: unknown;
  readonly source?: { readonly data?: string };
  readonly image_url?: string | { readonly url?: string };
  readonly inlineData?: { readonly data?: string };
  readonly functionCall?: { readonly name?: string };
  readonly functionResponse?: { readonly response?: Record<string, unknown> };
}
interface Item {
  readonly type?: string;
  readonly role?: string;
  readonly name?: string;
  readonly content?: unknown;
  readonly output?: unknown;
  readonly tool_calls?: readonly { readonly function?: { readonly name?: string } }[];
  readonly parts?: readonly Part[];
}
interface Body {
  readonly instructions?: string;
  readonly input?: readonly Item[];
  readonly messages?: readonly Item[];
  readonly contents?: readonly Item[];
  readonly systemInstruction?: { readonly parts?: readonly Part[] } | string;
  readonly system?: string | readonly Part[];
}

/** The content blocks of a message (Anthropic), none for text content. */
function blocks(content: unknown): Part[] {
  return Array.isArray(content) ? (content as Part[]) : [];
}

/** Text of a message's content: a string, or its text parts joined. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Part[]).flatMap((p) => (typeof p.text === "string" && p.type !== "input_image" ? [p.text] : [])).join("\n");
}

/** The system instruction the request carries. */
export function systemText(body: unknown): string {
  const b = body as Body;
  if (typeof b.instructions === "string") return b.instructions;
  if (b.system !== undefined) return textOf(b.system);
  const system = b.messages?.find((m) => m.role === "system");
  if (system) return textOf(system.content);
  const si = b.systemInstruction;
  return typeof si === "string" ? si : (si?.parts ?? []).map((p) => p.text ?? "").join("\n");
}

/** The tool results the request carries, in order, as the text the model reads. */
export function toolOutputs(body: unknown): string[] {
  const b = body as Body;
  if (b.input) return b.input.filter((i) => i.type === "function_call_output").map((i) => (typeof i.output === "string" ? i.output : textOf(i.output)));
  if (b.messages) {
    return b.messages.flatMap((m) =>
      m.role === "tool" ? [textOf(m.content)] : blocks(m.content).flatMap((p) => (p.type === "tool_result" ? [textOf(p.content)] : [])),
    );
  }
  return (b.contents ?? []).flatMap((c) =>
    (c.parts ?? []).flatMap((p) => {
      const r = p.functionResponse?.response;
      if (!r) return [];
      return [typeof r.output === "string" ? r.output : JSON.stringify(r)];
    }),
  );
}

/** The names of the tool calls the model made earlier in the conversation, in order. */
export function callNames(body: unknown): string[] {
  const b = body as Body;
  if (b.input) return b.input.flatMap((i) => (i.type === "function_call" && i.name ? [i.name] : []));
  if (b.messages) {
    return b.messages.flatMap((m) => [
      ...(m.tool_calls ?? []).flatMap((c) => (c.function?.name ? [c.function.name] : [])),
      ...blocks(m.content).flatMap((p) => (p.type === "tool_use" && p.name ? [p.name] : [])),
    ]);
  }
  return (b.contents ?? []).flatMap((c) => (c.parts ?? []).flatMap((p) => (p.functionCall?.name ? [p.functionCall.name] : [])));
}

/** The text of the user's messages (tool results excluded), in order. */
export function userTexts(body: unknown): string[] {
  const b = body as Body;
  const items = b.input ?? b.messages ?? [];
  // An Anthropic user message of tool results only is no text of the user's.
  const fromItems = items.filter((i) => i.role === "user" && !(blocks(i.content).length && blocks(i.content).every((p) => p.type === "tool_result"))).map((i) => textOf(i.content));
  const fromContents = (b.contents ?? [])
    .filter((c) => c.role === "user")
    .map((c) => (c.parts ?? []).flatMap((p) => (typeof p.text === "string" ? [p.text] : [])).join("\n"))
    .filter((t) => t !== "");
  return [...fromItems, ...fromContents];
}

/** The latest snapshot text the request carries (inside its page-data fence). */
export function latestSnapshot(body: unknown): string {
  for (const out of toolOutputs(body).reverse()) {
    try {
      const v = JSON.parse(unfence(out)) as { text?: unknown };
      if (typeof v.text === "string") return v.text;
    } catch {
      // not a snapshot
    }
  }
  return "";
}

/** The images the request carries, in order, as base64 (Responses `input_image`, Chat `image_url`, Anthropic `image` blocks in tool results, Gemini `inlineData`). */
export function imagesIn(body: unknown): string[] {
  const b = body as Body;
  const base64 = (url: string | undefined) => (url ?? "").replace(/^data:[^;]+;base64,/, "");
  const parts = [
    ...(b.input ?? []).flatMap((i) => [i.output, i.content]),
    ...(b.messages ?? []).map((m) => m.content),
    ...(b.contents ?? []).map((c) => c.parts),
  ]
    .flatMap((x) => blocks(x))
    .flatMap((p) => (p.type === "tool_result" ? blocks(p.content) : [p]));
  return parts.flatMap((p) => {
    if (p.type === "input_image" && typeof p.image_url === "string") return [base64(p.image_url)];
    if (p.type === "image_url" && typeof p.image_url === "object") return [base64(p.image_url.url)];
    if (p.inlineData?.data) return [p.inlineData.data];
    if (p.type === "image" && p.source?.data) return [p.source.data];
    return [];
  });
}
