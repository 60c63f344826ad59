/**
 * The conversation in Anthropic's Messages shape, and the thinking blocks a turn must carry back.
 *
 * A tool-use loop is one assistant turn to Claude, with one thinking setting: the assistant
 * message whose tool calls are answered must come back with its thinking blocks exactly as the
 * model wrote them (text and signature), in their place among the tool calls, and the call that
 * answers it must ask for thinking as that message's call did. The loop keeps a call's opaque
 * `signature`, so the turn's block layout and its thinking setting travel there, on its first call.
 */
import type { Base64ImageSource, ContentBlockParam, ImageBlockParam, MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ModelRequest } from "./types.js";
import { base64Of, resultFor } from "./vision.js";

/** A thinking block as the model sent it; it must come back unchanged. */
export type ThinkingBlock =
  | { readonly type: "thinking"; readonly thinking: string; readonly signature: string }
  | { readonly type: "redacted_thinking"; readonly data: string };

/** Where a turn's blocks stood: its thinking blocks whole, its text and tool calls as places. */
export type BlockLayout = readonly (ThinkingBlock | { readonly type: "text" } | { readonly type: "tool_use" })[];

/** A turn as its first call's signature carries it: where its blocks stood, and whether it was asked to think. */
export interface TurnRecord {
  readonly layout: BlockLayout;
  readonly thinking: boolean;
}

/** The record as a call signature. */
export function turnSignature(r: TurnRecord): string {
  return JSON.stringify({ anthropic: r.layout, thinking: r.thinking });
}

/** The record a signature holds; undefined for any other provider's signature (a session that changed model). */
export function turnOf(signature: string | undefined): TurnRecord | undefined {
  if (!signature?.startsWith('{"anthropic":')) return undefined;
  try {
    const v = JSON.parse(signature) as { anthropic?: unknown; thinking?: unknown };
    return Array.isArray(v.anthropic) ? { layout: v.anthropic as BlockLayout, thinking: v.thinking === true } : undefined;
  } catch {
    return undefined;
  }
}

/** An image block; a screenshot is JPEG or PNG, both of which Anthropic reads. */
function image(mimeType: string, data: Uint8Array): ImageBlockParam {
  return { type: "image", source: { type: "base64", media_type: mimeType as Base64ImageSource["media_type"], data: base64Of(data) } };
}

/** An assistant turn's content: its thinking blocks where they were, the text, the tool calls. */
function assistantContent(text: string, calls: Extract<ModelRequest["items"][number], { type: "assistant" }>["calls"], layout: BlockLayout | undefined): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  const tool = (c: (typeof calls)[number]): ContentBlockParam => ({ type: "tool_use", id: c.id, name: c.name, input: argsObject(c.arguments) });
  let next = 0;
  let textDone = !text;
  for (const b of layout ?? []) {
    if (b.type === "thinking" || b.type === "redacted_thinking") out.push(b as ContentBlockParam);
    else if (b.type === "text" && !textDone) {
      out.push({ type: "text", text });
      textDone = true;
    } else if (b.type === "tool_use" && next < calls.length) out.push(tool(calls[next++]!));
  }
  // What the layout did not place (no layout at all, or a turn the loop changed): text, then calls.
  if (!textDone) out.splice(out.findIndex((b) => b.type === "tool_use") === -1 ? out.length : out.findIndex((b) => b.type === "tool_use"), 0, { type: "text", text });
  for (const c of calls.slice(next)) out.push(tool(c));
  return out;
}

/** Tool input must be an object on Anthropic's wire; arguments that are not one travel as text under `unparsed`. */
function argsObject(s: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(s || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { unparsed: s };
  }
}

/** What {@link toAnthropicMessages} builds. */
export interface AnthropicConversation {
  readonly messages: MessageParam[];
  /**
   * False when the answered assistant turn was not asked to think (another provider wrote it, or
   * it followed such a turn): this call continues that turn, so thinking stays off, or the API
   * refuses a tool-use turn without thinking blocks.
   */
  readonly thinkingAllowed: boolean;
}

/**
 * The conversation as Messages: user text; assistant turns with their thinking blocks, text and
 * `tool_use` blocks; each turn's results as `tool_result` blocks in the next user message, a
 * result's screenshots as image blocks inside it (to a model that reads them). Consecutive
 * messages of one role merge, as the API wants them alternating; a conversation that ends on the
 * assistant gets a user turn, since a final assistant message would be taken as the start of
 * the answer.
 */
export function toAnthropicMessages(req: ModelRequest, vision = true): AnthropicConversation {
  const out: MessageParam[] = [];
  let thinkingAllowed = true;
  const push = (role: "user" | "assistant", content: ContentBlockParam[]) => {
    if (!content.length) return;
    const last = out.at(-1);
    if (last?.role === role) (last.content as ContentBlockParam[]).push(...content);
    else out.push({ role, content });
  };
  for (const it of req.items) {
    // The API refuses an empty text block.
    if (it.type === "user") push("user", it.text ? [{ type: "text", text: it.text }] : []);
    else if (it.type === "assistant") {
      const turn = turnOf(it.calls[0]?.signature);
      if (it.calls.length) thinkingAllowed = turn?.thinking === true;
      push("assistant", assistantContent(it.text, it.calls, turn?.layout));
    } else {
      const r = resultFor(it, vision);
      const content: (TextBlockParam | ImageBlockParam)[] = [{ type: "text", text: r.output }, ...r.images.map((img) => image(img.mimeType, img.data))];
      push("user", [{ type: "tool_result", tool_use_id: it.callId, content: r.images.length ? content : r.output }]);
    }
  }
  if (out.at(-1)?.role === "assistant") push("user", [{ type: "text", text: "Continue." }]);
  return { messages: out, thinkingAllowed };
}
