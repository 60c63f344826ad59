import { describe, expect, it } from "vitest";
import { AnthropicProvider } from "../providers/anthropic.js";
import { GeminiProvider } from "../providers/gemini.js";
import { OpenAiChatProvider } from "../providers/openai-chat.js";
import { OpenAiResponsesProvider } from "../providers/openai-responses.js";
import { userModelResolver } from "./user-models.js";

describe("the standalone mode's model resolver (the user's own key)", () => {
  it("builds the backend's providers from one key and base URL", () => {
    const resolve = userModelResolver({ apiKey: "sk-own", baseUrl: "http://127.0.0.1:9/v1" });
    const chat = resolve("chat:small");
    expect(chat.provider).toBeInstanceOf(OpenAiChatProvider);
    expect(chat.model).toBe("small");
    expect(resolve("openai:gpt-5-mini").provider).toBeInstanceOf(OpenAiResponsesProvider);
    expect(resolve("gemini:gemini-2.5-flash").provider).toBeInstanceOf(GeminiProvider);
    expect(resolve("anthropic:claude-sonnet-5-5").provider).toBeInstanceOf(AnthropicProvider);
    // One provider per prefix, reused.
    expect(resolve("chat:other").provider).toBe(chat.provider);
  });

  it("says what to fill in, and refuses script models", () => {
    expect(() => userModelResolver({ apiKey: "" })("openai:gpt-5-mini")).toThrow("add your openai API key in Baton's settings");
    expect(() => userModelResolver({ apiKey: "" })("anthropic:claude-sonnet-5-5")).toThrow("add your anthropic API key in Baton's settings");
    expect(userModelResolver({ apiKey: "" })("ollama:qwen3").provider).toBeInstanceOf(OpenAiChatProvider);
    // Chrome's built-in model needs no key, and answers questions in the panel, never a task.
    expect(() => userModelResolver({ apiKey: "" })("built-in:gemini-nano")).toThrow("it cannot drive the agent");
    expect(() => userModelResolver({ apiKey: "k" })("script:a.json")).toThrow(/script models replay files on a backend/);
    expect(() => userModelResolver({ apiKey: "k" })("gpt-5")).toThrow('"gpt-5" is not "provider:model"');
  });
});
