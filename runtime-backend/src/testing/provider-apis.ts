/**
 * The model APIs the backend speaks, each as its real SDK (`openai` Responses and Chat
 * Completions, `@anthropic-ai/sdk`, `@google/genai`) pointed at a local fake server speaking that
 * API's wire. Tests that must hold on every API run once per entry.
 */
import { AnthropicProvider } from "../providers/anthropic.js";
import { GeminiProvider } from "../providers/gemini.js";
import { OpenAiChatProvider } from "../providers/openai-chat.js";
import { OpenAiResponsesProvider } from "../providers/openai-responses.js";
import type { Provider } from "../providers/types.js";
import { anthropicWire, chatWire, geminiWire, responsesWire, type WireFormat } from "./fake-llm-server.js";

/** One API: its wire for the fake server, a model name, and its provider against a server's URL. */
export interface ProviderApi {
  readonly name: string;
  readonly wire: WireFormat;
  readonly model: string;
  readonly make: (url: string) => Provider;
}

/** OpenAI Responses, Chat Completions, Anthropic Messages and Gemini. */
export const providerApis: readonly ProviderApi[] = [
  { name: "OpenAI Responses", wire: responsesWire, model: "gpt-4o-mini", make: (url) => new OpenAiResponsesProvider({ apiKey: "sk-test", baseURL: `${url}/v1` }) },
  { name: "Chat Completions", wire: chatWire, model: "gpt-4o-mini", make: (url) => new OpenAiChatProvider({ apiKey: "sk-test", baseURL: `${url}/v1` }) },
  { name: "Anthropic", wire: anthropicWire, model: "claude-haiku-4-5", make: (url) => new AnthropicProvider({ apiKey: "sk-ant-test", baseURL: url }) },
  { name: "Gemini", wire: geminiWire, model: "gemini-2.0-flash", make: (url) => new GeminiProvider({ apiKey: "AIza-test", baseUrl: url }) },
];
