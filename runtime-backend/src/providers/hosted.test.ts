import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AnthropicProvider } from "./anthropic.js";
import { autoModel, hostedProvider, providerHelp, providerTable } from "./hosted.js";

const root = join(import.meta.dirname, "..", "..", "..");

describe("the provider table", () => {
  it("builds every hosted provider from its variables, and names the variable when it is missing", () => {
    const anthropic = hostedProvider("anthropic", { ANTHROPIC_API_KEY: "sk-ant-x", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" });
    expect(anthropic).toBeInstanceOf(AnthropicProvider);
    expect(anthropic.name).toBe("anthropic");
    expect(() => hostedProvider("anthropic", {})).toThrow("set ANTHROPIC_API_KEY");
    expect(() => hostedProvider("claude", {})).toThrow('unknown provider "claude"; use one of: openai, gemini, anthropic, chat, chat-json, openrouter, ollama, built-in, script');
    // The built-in model answers questions in the extension; it never drives the agent.
    expect(() => hostedProvider("built-in", {})).toThrow("only answers questions: it cannot drive the agent");
  });

  it("picks a model from the first key that is set: OpenAI, then Gemini, then Anthropic", () => {
    expect(autoModel({ ANTHROPIC_API_KEY: "k" })).toBe("anthropic:claude-sonnet-5-5");
    expect(autoModel({ ANTHROPIC_API_KEY: "k", GOOGLE_API_KEY: "g" })).toBe("gemini:gemini-2.5-flash");
    expect(autoModel({ ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "o" })).toBe("openai:gpt-5-mini");
    expect(autoModel({})).toBeUndefined();
  });

  it("is what the CLI's help and the docs list", () => {
    expect(Object.keys(providerHelp)).toEqual(providerTable.map((e) => e.prefix));
    // Each prefix has a row in the backend's provider table, and the keyed ones a line in the
    // README (the command's no-model advice is held to the table by the command's own test).
    const backendDoc = readFileSync(join(root, "docs/backend.md"), "utf8");
    const readme = readFileSync(join(root, "README.md"), "utf8");
    for (const e of providerTable) {
      expect(backendDoc, e.prefix).toContain(`| \`${e.prefix}\` |`);
      if (e.auto) expect(readme, e.prefix).toContain(`\`${e.prefix}:${e.auto.model}\``);
    }
  });
});
