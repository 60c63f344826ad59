import { describe, expect, it } from "vitest";
import { acceptsImages, base64Of, imageTokens } from "./vision.js";

describe("which models read images", () => {
  it("knows the families, per provider, and lets the operator say otherwise per model", () => {
    expect(acceptsImages("openai", "gpt-5-mini")).toBe(true);
    expect(acceptsImages("openai", "o3-mini")).toBe(false);
    expect(acceptsImages("openai", "gpt-3.5-turbo")).toBe(false);
    expect(acceptsImages("gemini", "gemini-2.5-flash")).toBe(true);
    expect(acceptsImages("anthropic", "claude-sonnet-4-5")).toBe(true);
    expect(acceptsImages("anthropic", "claude-2.1")).toBe(false);
    for (const m of ["gpt-4o-mini", "anthropic/claude-sonnet-4", "llava:13b", "qwen2.5-vl-7b-instruct", "llama3.2-vision", "gemma3:12b", "pixtral-12b"]) {
      expect(acceptsImages("chat", m), m).toBe(true);
    }
    for (const m of ["llama3.1:8b", "qwen2.5:7b", "mistral-7b-instruct", "deepseek-r1", "o3-mini"]) expect(acceptsImages("ollama", m), m).toBe(false);
    expect(acceptsImages("chat", "my-finetune", { BATON_VISION_MODELS: "other,my-*" })).toBe(true);
    expect(acceptsImages("openai", "gpt-4o", { BATON_TEXT_ONLY_MODELS: "gpt-4o" })).toBe(false);
  });

  it("encodes images as base64 without Node's Buffer (an extension page has none), large ones too", () => {
    const big = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 256);
    const buffer = globalThis.Buffer;
    // What a page has: no Buffer at all.
    Reflect.deleteProperty(globalThis, "Buffer");
    try {
      expect(base64Of(Uint8Array.of(137, 80, 78, 71))).toBe("iVBORw==");
      const encoded = base64Of(big);
      expect(buffer.from(encoded, "base64").equals(buffer.from(big))).toBe(true);
    } finally {
      globalThis.Buffer = buffer;
    }
  });

  it("estimates an image's tokens by OpenAI's tile rule", () => {
    expect(imageTokens(512, 512)).toBe(85 + 170);
    // 1280×800 → short side 768 → 1229×768 → 3×2 tiles.
    expect(imageTokens(1280, 800)).toBe(85 + 170 * 6);
    expect(imageTokens(0, 0)).toBe(85);
  });
});
