/**
 * A stand-in for the Prompt API (`LanguageModel`) with the interface the specification gives it:
 * the static `availability()` and `create()` (with `monitor` and its `downloadprogress`
 * ProgressEvents, `signal`, `initialPrompts`, a user gesture needed to start a download), sessions
 * that are EventTargets with `prompt()`, `promptStreaming()` (a ReadableStream of pieces),
 * `append()`, `measureContextUsage()`, `contextUsage`, `contextWindow`, `contextoverflow`, `clone()`
 * and `destroy()`, and the DOMExceptions the specification names. Where Chrome runs Gemini Nano
 * this is the model; here (headless Chromium has none) tests script its answers. Runs in Node
 * (the provider contract) and in a page (the panel's screenshots, bundled by esbuild).
 */
import type {
  Availability,
  CreateMonitor,
  LanguageModelCreateCoreOptions,
  LanguageModelCreateOptions,
  LanguageModelMessage,
  LanguageModelPrompt,
  LanguageModelPromptOptions,
  LanguageModelSession,
  LanguageModelStatic,
} from "../providers/prompt-api.js";

/** How the stand-in behaves; the test may change it between calls. */
export interface StandInState {
  availability: Availability;
  /** The answer to a prompt, given the session's messages so far and the prompt's. */
  answer: (messages: readonly LanguageModelMessage[]) => string;
  /** Tokens a session may hold. */
  contextWindow: number;
  /** Characters per streamed piece, and the pause before each. */
  chunkChars: number;
  chunkDelayMs: number;
  /** The progress (0 to 1) a download reports, a step per `downloadStepMs`. */
  downloadSteps: readonly number[];
  downloadStepMs: number;
  /** Whether the caller has a user gesture now (a page's `navigator.userActivation.isActive`). */
  userActivation: () => boolean;
  /** Every create() and prompt, for tests to look at. */
  readonly log: { readonly created: LanguageModelCreateOptions[]; readonly prompts: { readonly messages: LanguageModelMessage[]; readonly streamed: boolean }[] };
}

/** The stand-in's token count: one per four characters, as a rough tokenizer would. */
export function standInTokens(input: LanguageModelPrompt): number {
  return Math.ceil(asMessages(input).reduce((n, m) => n + textOf(m).length, 0) / 4);
}

function asMessages(input: LanguageModelPrompt): LanguageModelMessage[] {
  return typeof input === "string" ? [{ role: "user", content: input }] : [...input];
}

function textOf(m: LanguageModelMessage): string {
  return typeof m.content === "string" ? m.content : m.content.map((p) => (typeof p.value === "string" ? p.value : "")).join("");
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

/** `downloadprogress` as the page sees it: a ProgressEvent (Node has none: an Event with the same fields). */
function progress(loaded: number): ProgressEvent {
  if (typeof ProgressEvent === "function") return new ProgressEvent("downloadprogress", { loaded, total: 1, lengthComputable: true });
  return Object.assign(new Event("downloadprogress"), { loaded, total: 1, lengthComputable: true }) as ProgressEvent;
}

class StandInMonitor extends EventTarget implements CreateMonitor {
  ondownloadprogress: ((e: ProgressEvent) => void) | null = null;
  report(loaded: number): void {
    const e = progress(loaded);
    this.ondownloadprogress?.(e);
    this.dispatchEvent(e);
  }
}

/**
 * A `LanguageModel` interface object and the state behind it. Install it where the page looks
 * (`globalThis.LanguageModel = LanguageModel`) or hand it to the provider.
 */
export function promptApiStandIn(initial: Partial<Omit<StandInState, "log">> = {}): { LanguageModel: LanguageModelStatic; state: StandInState } {
  const state: StandInState = {
    availability: "available",
    answer: (messages) => `You asked: ${textOf(messages.at(-1) ?? { role: "user", content: "" })}`,
    contextWindow: 6144,
    chunkChars: 6,
    chunkDelayMs: 0,
    downloadSteps: [0, 0.25, 0.5, 0.75, 1],
    downloadStepMs: 50,
    userActivation: () => true,
    log: { created: [], prompts: [] },
    ...initial,
  };

  class LanguageModel extends EventTarget implements LanguageModelSession {
    #messages: LanguageModelMessage[];
    #usage: number;
    #destroyed = new AbortController();
    readonly contextWindow = state.contextWindow;
    oncontextoverflow: ((e: Event) => void) | null = null;
    /** Experimental in the specification (extensions only): the sampling the session uses. */
    readonly topK = 3;
    readonly temperature = 1;

    private constructor(messages: LanguageModelMessage[]) {
      super();
      this.#messages = messages;
      this.#usage = standInTokens(messages);
    }

    static async availability(_options: LanguageModelCreateCoreOptions = {}): Promise<Availability> {
      return state.availability;
    }

    /** Experimental in the specification (extensions only). */
    static async params() {
      return { defaultTopK: 3, maxTopK: 8, defaultTemperature: 1, maxTemperature: 2 };
    }

    static async create(options: LanguageModelCreateOptions = {}): Promise<LanguageModelSession> {
      state.log.created.push(options);
      if (options.signal?.aborted) throw options.signal.reason;
      if (state.availability === "unavailable") throw new DOMException("The model is not available on this device.", "NotSupportedError");
      if (state.availability !== "available" && !state.userActivation()) {
        throw new DOMException("Requires a user gesture when availability is \"downloading\" or \"downloadable\".", "NotAllowedError");
      }
      const monitor = new StandInMonitor();
      options.monitor?.(monitor);
      if (state.availability !== "available") {
        state.availability = "downloading";
        for (const loaded of state.downloadSteps) {
          monitor.report(loaded);
          if (loaded < 1) await sleep(state.downloadStepMs, options.signal);
        }
        state.availability = "available";
      } else {
        // Always at least 0 and 1, even with nothing to download.
        monitor.report(0);
        monitor.report(1);
      }
      const session = new LanguageModel([...(options.initialPrompts ?? [])]);
      if (session.#usage > session.contextWindow) throw new DOMException("The initial prompts are too large.", "QuotaExceededError");
      return session;
    }

    get contextUsage(): number {
      return this.#usage;
    }

    async measureContextUsage(input: LanguageModelPrompt, _options: LanguageModelPromptOptions = {}): Promise<number> {
      return standInTokens(input);
    }

    /** Checks a prompt may run, takes it into the session, and returns its answer. */
    #take(input: LanguageModelPrompt, signal: AbortSignal | undefined, streamed: boolean): string {
      if (this.#destroyed.signal.aborted) throw new DOMException("The session was destroyed.", "InvalidStateError");
      if (signal?.aborted) throw signal.reason;
      const messages = asMessages(input);
      if (messages.some((m) => m.role === "system")) throw new DOMException("A system message belongs in initialPrompts.", "NotSupportedError");
      const requested = standInTokens(messages);
      if (this.#usage + requested > this.contextWindow) {
        this.dispatchEvent(new Event("contextoverflow"));
        this.oncontextoverflow?.(new Event("contextoverflow"));
        throw new DOMException(`The prompt needs ${this.#usage + requested} tokens; the session holds ${this.contextWindow}.`, "QuotaExceededError");
      }
      this.#messages.push(...messages);
      state.log.prompts.push({ messages: [...this.#messages], streamed });
      const answer = state.answer(this.#messages);
      this.#messages.push({ role: "assistant", content: answer });
      this.#usage += requested + standInTokens(answer);
      return answer;
    }

    async prompt(input: LanguageModelPrompt, options: LanguageModelPromptOptions = {}): Promise<string> {
      const answer = this.#take(input, options.signal, false);
      await sleep(state.chunkDelayMs, AbortSignal.any([this.#destroyed.signal, ...(options.signal ? [options.signal] : [])]));
      return answer;
    }

    promptStreaming(input: LanguageModelPrompt, options: LanguageModelPromptOptions = {}): ReadableStream<string> {
      const signal = AbortSignal.any([this.#destroyed.signal, ...(options.signal ? [options.signal] : [])]);
      let answer: string;
      try {
        answer = this.#take(input, options.signal, true);
      } catch (e) {
        // Errors reach the caller through the stream, as the specification has it.
        return new ReadableStream<string>({ start: (c) => c.error(e) });
      }
      let at = 0;
      return new ReadableStream<string>({
        pull: async (c) => {
          try {
            await sleep(state.chunkDelayMs, signal);
          } catch (e) {
            return c.error(e);
          }
          if (at >= answer.length) return c.close();
          c.enqueue(answer.slice(at, at + state.chunkChars));
          at += state.chunkChars;
        },
      });
    }

    async append(input: LanguageModelPrompt, options: { readonly signal?: AbortSignal } = {}): Promise<void> {
      if (options.signal?.aborted) throw options.signal.reason;
      this.#messages.push(...asMessages(input));
      this.#usage += standInTokens(input);
    }

    async clone(options: { readonly signal?: AbortSignal } = {}): Promise<LanguageModelSession> {
      if (options.signal?.aborted) throw options.signal.reason;
      return new LanguageModel([...this.#messages]);
    }

    destroy(): void {
      this.#destroyed.abort(new DOMException("The session was destroyed.", "AbortError"));
    }
  }

  return { LanguageModel, state };
}
