import { browserLanguageModel, type LanguageModelMessage, type LanguageModelSession, type LanguageModelStatic, textInEnglish } from "./prompt-api.js";
import { ProviderError, type ProviderErrorKind, type ModelRequest, type ModelTurn, type Provider } from "./types.js";
import { resultFor } from "./vision.js";

/** Options of the built-in model's provider. */
export interface BuiltInOptions {
  /** The Prompt API to use; the browser's `LanguageModel` by default (tests hand a stand-in). */
  readonly languageModel?: LanguageModelStatic;
  /** Stream the answer (it reaches `onStream` as it is written); default true. */
  readonly stream?: boolean;
  /** Deadline of one answer. */
  readonly timeoutMs?: number;
}

/** The status a too-long prompt fails with, as HTTP says it (413): a caller may shorten the page and ask again. */
export const promptTooLong = 413;

/** The conversation as Prompt API messages: a call becomes a line of the assistant's text, a result a user message. */
function messagesOf(req: ModelRequest): LanguageModelMessage[] {
  const out: LanguageModelMessage[] = [];
  for (const it of req.items) {
    if (it.type === "user") out.push({ role: "user", content: it.text });
    else if (it.type === "assistant") {
      const calls = it.calls.map((c) => `(called ${c.name} ${c.arguments})`);
      const text = [it.text, ...calls].filter(Boolean).join("\n");
      if (text) out.push({ role: "assistant", content: text });
    } else out.push({ role: "user", content: `Result of ${it.name}:\n${resultFor(it, false).output}` });
  }
  return out;
}

/** A DOMException (or anything thrown) as a ProviderError that says what to do. */
function failure(e: unknown, session: LanguageModelSession | undefined): ProviderError {
  const name = e instanceof Error || e instanceof DOMException ? e.name : "";
  const said = e instanceof Error || e instanceof DOMException ? e.message : String(e);
  const as = (kind: ProviderErrorKind, message: string, status = 0) => new ProviderError(kind, message, status);
  switch (name) {
    case "QuotaExceededError":
      return as(
        "bad_request",
        `the page and the question are longer than Chrome's built-in model can read${session ? ` (${session.contextWindow} tokens)` : ""}: ask about a part of the page`,
        promptTooLong,
      );
    case "NotAllowedError":
      return as("auth", `Chrome does not let this page use its built-in model (turned off by the user or by policy): ${said}`);
    case "NotSupportedError":
      return as("bad_request", `Chrome's built-in model cannot take this: ${said}`);
    case "NotReadableError":
      return as("bad_request", "Chrome withheld the built-in model's answer (its output filter): ask another way");
    case "NetworkError":
      return as("network", `the built-in model could not be downloaded: ${said}`);
    default:
      return as("server", `Chrome's built-in model failed: ${name ? `${name}: ` : ""}${said}`);
  }
}

/**
 * Chrome's built-in model (Gemini Nano) through the Prompt API, on the user's own device: no key,
 * nothing leaves the browser. Chat only: its context window holds a page and a question,
 * not the tool catalog, so it answers questions about the page the user has open and never drives
 * the agent — the request's tools are not given to it and it returns no calls. One session per
 * answer: the system prompt and the earlier turns as initial prompts, the last message as the
 * prompt, streamed piece by piece to `onStream`. Usage comes from the session's `contextUsage`.
 */
export class BuiltInProvider implements Provider {
  readonly name = "built-in";

  constructor(private readonly o: BuiltInOptions = {}) {}

  async generate(req: ModelRequest): Promise<ModelTurn> {
    const lm = this.o.languageModel ?? browserLanguageModel();
    if (!lm) throw new ProviderError("bad_request", "this browser has no built-in model (the Prompt API's LanguageModel): it needs Chrome 138 or later");
    const availability = await lm.availability(textInEnglish).catch((e: unknown) => Promise.reject(failure(e, undefined)));
    if (availability !== "available") throw new ProviderError("bad_request", `Chrome's built-in model is ${availability}, not ready: ${availability === "unavailable" ? "this device or browser cannot run it" : "download it first"}`);
    const messages = messagesOf(req);
    const last = messages.at(-1);
    // The prompt is the last user message; a conversation that ends otherwise asks the model to go on.
    const [earlier, input] = last?.role === "user" ? [messages.slice(0, -1), [last]] : [messages, [{ role: "user" as const, content: "Continue." }]];
    const timeout = AbortSignal.timeout(this.o.timeoutMs ?? 120_000);
    const signal = AbortSignal.any([req.signal, timeout]);
    let session: LanguageModelSession | undefined;
    try {
      session = await lm.create({ ...textInEnglish, signal, initialPrompts: [{ role: "system", content: req.system }, ...earlier] });
      const before = session.contextUsage;
      const asked = await session.measureContextUsage(input, { signal });
      let text = "";
      if (this.o.stream === false) text = await session.prompt(input, { signal });
      else {
        const reader = session.promptStreaming(input, { signal }).getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          if (!r.value) continue;
          text += r.value;
          req.onStream?.({ kind: "text", delta: r.value });
        }
      }
      // The session holds the prompt and the answer: what it grew by past the prompt is the answer.
      const output = Math.max(0, session.contextUsage - before - asked);
      return { text, reasoning: "", calls: [], usage: { input: before + asked, output, cached: 0 }, retries: 0, notes: [] };
    } catch (e) {
      if (req.signal.aborted) throw new ProviderError("aborted", "stopped during the model call");
      if (timeout.aborted) throw new ProviderError("timeout", "the built-in model took too long to answer");
      throw e instanceof ProviderError ? e : failure(e, session);
    } finally {
      session?.destroy();
    }
  }
}
