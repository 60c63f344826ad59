/**
 * The Prompt API (`LanguageModel`, Chrome's built-in model), typed as its specification's IDL
 * (webmachinelearning/prompt-api) spells the parts Baton uses: TypeScript's DOM library does not
 * have it yet. The extension-only deprecated names (`inputUsage`, `inputQuota`,
 * `measureInputUsage`, `quotaoverflow`) are left out: `contextUsage` and friends replaced them.
 */

/** Whether the model can be used: at once, after a download, or not in this browser. */
export type Availability = "unavailable" | "downloadable" | "downloading" | "available";

/** A kind of content a session takes or gives, with its languages (BCP 47). */
export interface LanguageModelExpected {
  readonly type: "text" | "image" | "audio" | "tool-call" | "tool-response";
  readonly languages?: readonly string[];
}

/** One message of a prompt: its role and its text (or typed parts). */
export interface LanguageModelMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string | readonly { readonly type: LanguageModelExpected["type"]; readonly value: unknown }[];
  /** The model continues this (last, assistant) message instead of starting a new one. */
  readonly prefix?: boolean;
}

/** A prompt: a user message's text, or messages. */
export type LanguageModelPrompt = string | readonly LanguageModelMessage[];

/** What `availability()` and `create()` are asked about. */
export interface LanguageModelCreateCoreOptions {
  readonly expectedInputs?: readonly LanguageModelExpected[];
  readonly expectedOutputs?: readonly LanguageModelExpected[];
}

/** What `monitor` is handed: `downloadprogress` events (a ProgressEvent, `loaded` from 0 to 1, `total` 1). */
export interface CreateMonitor extends EventTarget {
  ondownloadprogress: ((e: ProgressEvent) => void) | null;
}

/** Options of `create()`. Creating a session that needs a download takes a user gesture. */
export interface LanguageModelCreateOptions extends LanguageModelCreateCoreOptions {
  readonly signal?: AbortSignal;
  readonly monitor?: (monitor: CreateMonitor) => void;
  /** The system prompt (first) and earlier turns. */
  readonly initialPrompts?: readonly LanguageModelMessage[];
}

/** Options of `prompt()`, `promptStreaming()` and `measureContextUsage()`. */
export interface LanguageModelPromptOptions {
  readonly signal?: AbortSignal;
  readonly responseConstraint?: object;
  readonly omitResponseConstraintInput?: boolean;
}

/** A session with the model. */
export interface LanguageModelSession extends EventTarget {
  prompt(input: LanguageModelPrompt, options?: LanguageModelPromptOptions): Promise<string>;
  /** The answer as it is written, a piece per chunk. */
  promptStreaming(input: LanguageModelPrompt, options?: LanguageModelPromptOptions): ReadableStream<string>;
  append(input: LanguageModelPrompt, options?: { readonly signal?: AbortSignal }): Promise<void>;
  measureContextUsage(input: LanguageModelPrompt, options?: LanguageModelPromptOptions): Promise<number>;
  /** Tokens the session holds: initial prompts and every turn since. */
  readonly contextUsage: number;
  /** Tokens the session may hold (may be Infinity). */
  readonly contextWindow: number;
  oncontextoverflow: ((e: Event) => void) | null;
  clone(options?: { readonly signal?: AbortSignal }): Promise<LanguageModelSession>;
  destroy(): void;
}

/** The `LanguageModel` interface object: its static methods. */
export interface LanguageModelStatic {
  availability(options?: LanguageModelCreateCoreOptions): Promise<Availability>;
  create(options?: LanguageModelCreateOptions): Promise<LanguageModelSession>;
}

/** This browser's `LanguageModel`, or undefined where there is none (Node, other browsers, Chrome before 138). */
export function browserLanguageModel(): LanguageModelStatic | undefined {
  return (globalThis as { LanguageModel?: LanguageModelStatic }).LanguageModel;
}

/** What a session is asked to read and write: English text, the language every version of the model takes. */
export const textInEnglish: LanguageModelCreateCoreOptions = {
  expectedInputs: [{ type: "text", languages: ["en"] }],
  expectedOutputs: [{ type: "text", languages: ["en"] }],
};
