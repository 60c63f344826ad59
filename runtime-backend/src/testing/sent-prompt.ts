/**
 * Reads a request a provider sent to a fake model server, whatever its wire: OpenAI Responses
 * (`instructions`, `input`), Chat Completions (`messages`) or Gemini (`systemInstruction`,
 * `contents`). Tests and stand-in models use it to read the prompt the way a model reads it.
 */
import { unfence } from "../context/page-data.js";

interface Part {
  readonly type?: string;
  readonly text?: string;
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
  const system = b.messages?.find((m) => m.role === "system");
  if (system) return textOf(system.content);
  const si = b.systemInstruction;
  return typeof si === "string" ? si : (si?.parts ?? []).map((p) => p.text ?? "").join("\n");
}

/** The tool results the request carries, in order, as the text the model reads. */
export function toolOutputs(body: unknown): string[] {
  const b = body as Body;
  if (b.input) return b.input.filter((i) => i.type === "function_call_output").map((i) => (typeof i.output === "string" ? i.output : textOf(i.output)));
  if (b.messages) return b.messages.filter((m) => m.role === "tool").map((m) => textOf(m.content));
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
  if (b.messages) return b.messages.flatMap((m) => (m.tool_calls ?? []).flatMap((c) => (c.function?.name ? [c.function.name] : [])));
  return (b.contents ?? []).flatMap((c) => (c.parts ?? []).flatMap((p) => (p.functionCall?.name ? [p.functionCall.name] : [])));
}

/** The text of the user's messages (tool results excluded), in order. */
export function userTexts(body: unknown): string[] {
  const b = body as Body;
  const items = b.input ?? b.messages ?? [];
  const fromItems = items.filter((i) => i.role === "user").map((i) => textOf(i.content));
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

/** The images the request carries, in order, as base64 (Responses `input_image`, Chat `image_url`, Gemini `inlineData`). */
export function imagesIn(body: unknown): string[] {
  const b = body as Body;
  const base64 = (url: string | undefined) => (url ?? "").replace(/^data:[^;]+;base64,/, "");
  const parts = [
    ...(b.input ?? []).flatMap((i) => [i.output, i.content]),
    ...(b.messages ?? []).map((m) => m.content),
    ...(b.contents ?? []).map((c) => c.parts),
  ].flatMap((x) => (Array.isArray(x) ? (x as Part[]) : []));
  return parts.flatMap((p) => {
    if (p.type === "input_image" && typeof p.image_url === "string") return [base64(p.image_url)];
    if (p.type === "image_url" && typeof p.image_url === "object") return [base64(p.image_url.url)];
    if (p.inlineData?.data) return [p.inlineData.data];
    return [];
  });
}
