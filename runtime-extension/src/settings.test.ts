import { describe, expect, it } from "vitest";
import { defaultSettings, missingSetup, modeOf, type Settings, taskBudgetOf } from "./settings.js";

const s = (change: Partial<Settings>): Settings => ({ ...defaultSettings, ...change });

describe("which mode the panel is in and what it still needs", () => {
  it("is connected whenever a backend URL is set, and then needs a token", () => {
    expect(modeOf(defaultSettings)).toBe("connected");
    expect(missingSetup(defaultSettings)).toMatch(/^Sign in/);
    expect(missingSetup(s({ token: "bt_x" }))).toBe("");
    // A model key does not switch a connected panel to standalone.
    expect(modeOf(s({ modelKey: "sk-own", model: "openai:gpt-5-mini" }))).toBe("connected");
  });

  it("is standalone with no backend URL, and says what to fill in", () => {
    expect(modeOf(s({ backendUrl: " " }))).toBe("standalone");
    expect(missingSetup(s({ backendUrl: "" }))).toBe("No backend and no model key: enter a backend URL, or a model and your API key to run Baton without a backend.");
    expect(missingSetup(s({ backendUrl: "", modelKey: "sk-own" }))).toMatch(/^Choose a model as "provider:model"/);
    expect(missingSetup(s({ backendUrl: "", model: "gpt-5", modelKey: "sk-own" }))).toMatch(/^Choose a model/);
    expect(missingSetup(s({ backendUrl: "", model: "gemini:gemini-2.5-flash" }))).toBe("Add your gemini API key: without a backend, Baton calls the model with your own key.");
    expect(missingSetup(s({ backendUrl: "", model: "chat:small", modelKey: "sk-own" }))).toBe("");
    // A local Ollama needs no key.
    expect(missingSetup(s({ backendUrl: "", model: "ollama:qwen3" }))).toBe("");
  });
});

describe("the budget a new task asks for", () => {
  it("is none while every ceiling is empty (the backend's default applies), and the ceilings set otherwise", () => {
    expect(taskBudgetOf(defaultSettings)).toBeUndefined();
    expect(taskBudgetOf(s({ budget: { tokens: 0, costUsd: 0.5, seconds: 0 } }))).toEqual({ tokens: 0, costUsd: 0.5, seconds: 0 });
    expect(taskBudgetOf(s({ budget: { tokens: 12_000, costUsd: 0, seconds: 600 } }))).toEqual({ tokens: 12_000, costUsd: 0, seconds: 600 });
  });
});
