import type { ModelImage } from "./types.js";

/**
 * Which models read images. The OpenAI Responses API and Gemini take images on every current
 * model but a few old text-only ones; an OpenAI-compatible server's model is known by name
 * (the families that read images), and the operator can say otherwise per model with
 * `BATON_VISION_MODELS` / `BATON_TEXT_ONLY_MODELS` (comma-separated, `*` wildcards).
 */
const textOnlyOpenAi = /^(gpt-3\.5|o1-mini|o3-mini|gpt-4(-0314|-0613|-32k)?$|babbage|davinci)/i;
const visionFamilies =
  /(gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4-vision|gpt-5|(^|\/)o[134](?!-mini)|claude|gemini|gemma-?3|llava|bakllava|moondream|minicpm-?v|qwen[\w.-]*-?vl|pixtral|mistral-(small|medium)-3|llama-?3\.2[\w.-]*vision|llama-?4|internvl|phi-3\.5-vision|phi-4-multimodal|grok[\w.-]*vision|vision)/i;

function matches(list: string | undefined, model: string): boolean {
  if (!list) return false;
  return list
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .some((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`, "i").test(model));
}

/** True when `model` of provider `prefix` reads images (see the module comment for the rule). */
export function acceptsImages(prefix: string, model: string, env: Readonly<Record<string, string | undefined>> = {}): boolean {
  if (matches(env.BATON_TEXT_ONLY_MODELS, model)) return false;
  if (matches(env.BATON_VISION_MODELS, model)) return true;
  if (prefix === "gemini") return true;
  if (prefix === "openai") return !textOnlyOpenAi.test(model);
  // Every Claude since the 3 family reads images; the 2 and Instant models did not.
  if (prefix === "anthropic") return !/^claude-(2|instant)/i.test(model);
  return visionFamilies.test(model);
}

/**
 * About how many input tokens an image costs (OpenAI's high-detail rule: scaled to fit 2048 ×
 * 2048, then its short side to 768, 170 per 512-pixel tile plus 85), for estimates where the
 * API does not count (scripts). Gemini counts 258 per 768-pixel tile, in the same range.
 */
export function imageTokens(width: number, height: number): number {
  if (!width || !height) return 85;
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(1, 768 / Math.min(w, h));
  w *= short;
  h *= short;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/**
 * Bytes as base64, without Node's Buffer: the providers also run in an extension page
 * (standalone mode), where there is none. `btoa` takes a binary string, built a chunk at a time
 * so a large screenshot never becomes one huge argument list.
 */
export function base64Of(data: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The image as a `data:` URL (OpenAI's image inputs). */
export function dataUrl(img: ModelImage): string {
  return `data:${img.mimeType};base64,${base64Of(img.data)}`;
}

/** The one line a model that does not read images gets instead of one. */
export function imageNote(img: ModelImage): string {
  return `[screenshot ${img.id} (${img.width}×${img.height} ${img.mimeType}) not shown: this model does not read images; use the snapshot text]`;
}

/** A label that goes before an image sent apart from its tool result (Chat Completions, Gemini, JSON mode). */
export function imageLabel(img: ModelImage, tool: string, callId: string): string {
  return `Screenshot ${img.id} from ${tool} (${callId}), ${img.width}×${img.height}:`;
}

/**
 * A tool result as a model with or without eyes gets it: the images to send, and the output
 * text, which for a model that does not read images ends with one note line per image.
 */
export function resultFor(item: { readonly output: string; readonly images?: readonly ModelImage[] | undefined }, vision: boolean): { output: string; images: readonly ModelImage[] } {
  const images = item.images ?? [];
  if (vision || images.length === 0) return { output: item.output, images };
  return { output: [item.output, ...images.map(imageNote)].join("\n"), images: [] };
}
