import type { DeclaredTool } from "@baton/sdk/contract";

/** One item of the conversation a provider sends, in a provider-neutral shape. */
export type ModelItem =
  | { readonly type: "user"; readonly text: string }
  | {
      readonly type: "assistant";
      readonly text: string;
      readonly calls: readonly { readonly id: string; readonly name: string; readonly arguments: string; readonly signature?: string | undefined }[];
    }
  | {
      readonly type: "tool_result";
      readonly callId: string;
      readonly name: string;
      readonly output: string;
      /** Screenshots the call returned, sent as images to a model that reads them. */
      readonly images?: readonly ModelImage[] | undefined;
    };

/** A screenshot for the model, as stored (`screenshot:<id>` in the tool result names it). */
export interface ModelImage {
  readonly id: string;
  readonly mimeType: string;
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** Everything a provider needs for one model call. */
export interface ModelRequest {
  /** The model name without the provider prefix. */
  readonly model: string;
  /** The system instruction. */
  readonly system: string;
  /** The conversation, oldest first. */
  readonly items: readonly ModelItem[];
  /** The tools the model may call: the catalog's and any the client declared for the session. */
  readonly tools: readonly DeclaredTool[];
  /** Aborted when the session is stopped or the request goes away. */
  readonly signal: AbortSignal;
  /** How many model calls this session made before this one (scripts index on it). */
  readonly callIndex: number;
  /** True when the prompt asks the model to fold its summaries (scripts honour it). */
  readonly foldRequested: boolean;
  /**
   * Called with the model's text and reasoning as they stream in, when the provider streams;
   * `restart` starts a new attempt of the call (a retry), whose stream replaces the last one's.
   */
  readonly onStream?: ((e: StreamDelta) => void) | undefined;
}

/** A piece of a streaming model call. */
export type StreamDelta =
  | { readonly kind: "text"; readonly delta: string }
  | { readonly kind: "reasoning"; readonly delta: string }
  | { readonly kind: "restart"; readonly attempt: number };

/** A tool call as the model made it; the loop validates it against the catalog. */
export interface ModelCall {
  /** The provider's id for the call, when it gives one. */
  readonly id: string;
  readonly name: string;
  /** The arguments, usually a JSON string; malformed JSON is the loop's to report. */
  readonly arguments: string;
  /** An opaque provider token that must be sent back with the call (Gemini thought signatures). */
  readonly signature?: string | undefined;
}

/** Tokens one model call used. */
export interface ModelUsage {
  readonly input: number;
  readonly output: number;
  readonly cached: number;
}

/** What one model call produced. `text` is "" (never null) for a tool-only response. */
export interface ModelTurn {
  readonly text: string;
  readonly reasoning: string;
  readonly calls: readonly ModelCall[];
  readonly usage: ModelUsage;
  /** Retries the call took (429/5xx/timeouts), for the trace. */
  readonly retries: number;
  /** Problems seen and recovered from (parse repairs, retries), for the trace. */
  readonly notes: readonly string[];
}

/** Why a model call failed for good. */
export type ProviderErrorKind = "rate_limited" | "server" | "timeout" | "network" | "aborted" | "bad_request" | "auth" | "malformed";

/** A model call that failed after its retries; the loop records it and fails or stops the step. */
export class ProviderError extends Error {
  override readonly name = "ProviderError";

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status = 0,
    readonly attempts = 1,
  ) {
    super(message);
  }
}

/** A model backend. Implementations must honour `signal` and never return null text. */
export interface Provider {
  /** Provider name, the part before ":" in "provider:model". */
  readonly name: string;
  /** Runs one model call. Throws ProviderError. */
  generate(req: ModelRequest): Promise<ModelTurn>;
  /**
   * Checks, before a session is created, that the model can be used (a script file exists and
   * parses). Throws an Error whose message is for the client.
   */
  check?(model: string): Promise<void>;
}

/** A provider and the model name it should use, from a "provider:model" string. */
export interface ResolvedModel {
  readonly provider: Provider;
  readonly model: string;
}

/** Turns "provider:model" into a provider; throws an Error with a clear message when unknown. */
export type ModelResolver = (spec: string) => ResolvedModel;
