import type { OptionsStore } from '../cache/options-store.js';
import type { ClaudeRequest } from './formats/anthropic/wire.js';
import type { GeminiRequest } from './formats/gemini/wire.js';
import type { ModelSuffix, SuffixDialect } from './model-suffix.js';
import type { SendOptions, UpstreamResponse } from './send.js';
import type { ChunkConverter } from './stream/stream-state.js';
import type { ChatRequest, ChatResponse, RuntimeChannel, UpstreamCall, UpstreamError } from './types.js';
import type { VideoProgress, VideoRequest, VideoSubmitted } from './video-types.js';

/**
 * What a provider can do for the conveyor. A provider declares the functions it serves; an endpoint asks for the
 * function it needs (or the one it can be converted through), so the conveyor never asks which provider it holds.
 */

/**
 * The gateway's options as a provider may read them (the `claude.*` and `gemini.*` groups…): the conveyor hands its
 * in-memory store over, so a read is a map lookup and providers stay free of the app's context.
 */
export type OptionReader = Pick<OptionsStore, 'get' | 'bool' | 'number' | 'json'>;

/** Chat in the gateway's lingua franca (OpenAI chat completions), converted to and from the provider's format. */
export interface ChatFunction {
  /** `options`: the gateway's options, for providers whose upstream calls depend on them. */
  call(channel: RuntimeChannel, request: ChatRequest, options?: OptionReader): UpstreamCall;
  /** The provider's JSON answer in the OpenAI shape (the same object when it already is one). */
  answer(json: Record<string, unknown>, model: string): ChatResponse;
  /** The provider's stream as OpenAI chunks (`forwardUsage`: the client asked for the usage chunk). */
  stream(model: string, forwardUsage: boolean): ChunkConverter;
}

/** A client API the provider speaks natively (Anthropic Messages, Gemini generateContent): the body goes as it is. */
export interface NativeFunction<Request> {
  /**
   * Whether this model answers in the format natively (a Vertex channel holds Claude and Gemini models alike);
   * without it every model does. The others are reached through the provider's chat function.
   */
  serves?(upstreamModel: string): boolean;
  call(channel: RuntimeChannel, request: Request, upstreamModel: string, context: NativeContext): UpstreamCall;
}

/** What a native call may carry over from the client's request besides its body. */
export interface NativeContext {
  stream: boolean;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  options?: OptionReader;
  /** What the model name's suffix asks (its name already removed from `upstreamModel`), see model-suffix.ts. */
  suffix?: ModelSuffix | null;
}

/**
 * An OpenAI endpoint other than chat (embeddings, rerank, images, audio…). `body` is the client's body with the model
 * replaced (JSON text, or multipart bytes for audio uploads); a provider with another wire format converts it in
 * `call` and converts its answer back with `answer`. Without `answer` the upstream's answer goes back as it came.
 */
export interface RouteFunction {
  call(channel: RuntimeChannel, body: string | Buffer, upstreamModel: string, contentType: string): UpstreamCall;
  /** The provider's JSON answer in the OpenAI shape of this endpoint (usage included). */
  answer?(json: Record<string, unknown>, model: string): Record<string, unknown>;
}

/**
 * An asynchronous task API that keeps the family's own task shape (Midjourney-proxy, Suno): the submit goes to
 * `path` on the channel's base URL; unfinished tasks are asked about in batches (`poll`).
 */
export interface TaskFunction {
  call(channel: RuntimeChannel, path: string, body: unknown): UpstreamCall;
  poll: TaskBatchPoll;
}

/** Asking a task API about many of its tasks in one call (Midjourney's list-by-condition, Suno's fetch). */
export interface TaskBatchPoll {
  /** Most ids per call. */
  size: number;
  call(channel: RuntimeChannel, upstreamIds: string[]): UpstreamCall;
  /** The tasks the answer reports, each under its id; throws when the answer is not a list of tasks. */
  read(json: unknown): Array<{ id: string; task: Record<string, unknown> }>;
}

/**
 * Video generation, an asynchronous task: everything a vendor differs in, and nothing else. The routes, the task
 * table, the poller, the content proxy and billing are shared (relay/tasks/video/); calls go through the provider's
 * `open` when it has one (Kling's JWT, Jimeng's signature), polls included.
 */
export interface VideoFunction {
  /**
   * The request parameter this vendor or model cannot honour (a 400 naming it, nothing charged), or null. Bounds
   * are the vendor's: a duration it cannot make, a size it does not offer, a last frame it cannot take.
   */
  unsupported(request: VideoRequest, upstreamModel: string): string | null;
  /**
   * What the model's price is multiplied by, as the family's task billing names them (`seconds`, `size`,
   * `resolution`…): the task costs ModelPrice × group ratio × the product of these, reserved at submit.
   */
  ratios(request: VideoRequest, upstreamModel: string): Record<string, number>;
  /**
   * The tokens the vendor will count, for vendors that bill video by tokens (Seedance): a model priced per token is
   * charged this at submit and settled by the finished task's own count. Without it such a model costs what was
   * reserved.
   */
  estimateTokens?(request: VideoRequest, upstreamModel: string): number;
  submit(channel: RuntimeChannel, request: VideoRequest, upstreamModel: string): UpstreamCall;
  /** The vendor's task id from its submit answer (a 2xx answer may still be a refusal in some vendors' envelopes). */
  readSubmit(json: unknown): VideoSubmitted;
  /** Asks about one task. */
  poll(channel: RuntimeChannel, upstreamId: string, upstreamModel: string): UpstreamCall;
  /** Reads the answer to `poll`. Throws when the answer is unreadable (the poller then asks again later). */
  readPoll(json: unknown, upstreamId: string): VideoProgress;
  /**
   * Fetches the finished file when a plain GET of the URL the poll reported is not enough: the file is behind the
   * vendor's key (OpenAI's `/v1/videos/{id}/content`), takes more than one step (MiniMax's retrieve, then a signed
   * URL; Gemini's redirect, followed without the key), or is already held (Vertex's base64 inside the operation).
   * Every call goes through `open` (the provider's signing, the outbound address policy); `range` is the client's
   * Range header, for vendors that can pass it on. Answers like an upstream response whose body is the file.
   */
  content?(
    channel: RuntimeChannel,
    upstreamId: string,
    url: string | undefined,
    open: (call: UpstreamCall) => Promise<UpstreamResponse>,
    range?: string,
  ): Promise<UpstreamResponse>;
  /** Deletes the task at the vendor (OpenAI's `DELETE /v1/videos/{id}`); without it a delete is only ours. */
  remove?(channel: RuntimeChannel, upstreamId: string): UpstreamCall;
}

export interface ProviderFunctions {
  chat?: ChatFunction;
  /** Anthropic Messages, `/v1/messages`. */
  messages?: NativeFunction<ClaudeRequest>;
  /** Gemini generateContent / streamGenerateContent. */
  generateContent?: NativeFunction<GeminiRequest>;
  completions?: RouteFunction;
  embeddings?: RouteFunction;
  moderations?: RouteFunction;
  images?: RouteFunction;
  rerank?: RouteFunction;
  responses?: RouteFunction;
  /** `POST /v1/responses/compact`: a long conversation's context condensed by the upstream (Codex). */
  compact?: RouteFunction;
  /**
   * A stored response at the upstream: `GET`/`DELETE /responses/{id}`, `POST …/cancel`, `GET …/input_items`.
   * `path` is what follows `/responses` (`/resp_1/cancel`), query string included. Null: this channel cannot.
   */
  responseResource?(channel: RuntimeChannel, method: 'GET' | 'POST' | 'DELETE', path: string): UpstreamCall | null;
  speech?: RouteFunction;
  transcriptions?: RouteFunction;
  translations?: RouteFunction;
  /** Midjourney-proxy submits. */
  midjourney?: TaskFunction;
  /** Suno API submits. */
  suno?: TaskFunction;
  /** Video generation tasks (Sora, Veo, Kling, Jimeng, Vidu, Seedance, Hailuo). */
  video?: VideoFunction;
}

/** The functions an OpenAI route endpoint asks for (openai-routes.ts, audio.ts). */
export type RouteFunctionName =
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images'
  | 'rerank'
  | 'responses'
  | 'speech'
  | 'transcriptions'
  | 'translations';

export interface Provider {
  functions: ProviderFunctions;
  /** Reads the provider's error body. */
  error(status: number, text: string): UpstreamError;
  /** Lists the upstream's model names (for "fetch models"). */
  models?: {
    call(channel: RuntimeChannel): UpstreamCall;
    read(body: unknown): string[];
  };
  /**
   * Carries out the call itself instead of the conveyor's one plain HTTP request: an access token fetched (and cached)
   * first, a signature over the body as finally sent, a WebSocket whose frames become the answer, or an error that an
   * upstream answers with HTTP 200 turned into the status it means. Answers like `sendUpstream`.
   */
  open?(call: UpstreamCall, channel: RuntimeChannel, options: OpenOptions): Promise<UpstreamResponse>;
  /** The model-name suffixes this upstream understands for a model (model-suffix.ts); without it, none. */
  suffixDialect?(model: string): SuffixDialect | undefined;
  /**
   * An error that, beside the rules every upstream shares (auto-disable.ts), means this provider's key or account
   * is unusable: Google refuses a wrong key with a 403 or a 400 that says so.
   */
  disablesChannel?(error: UpstreamError): boolean;
}

export interface OpenOptions extends SendOptions {
  /** The answer is read as server-sent events (otherwise as one whole body). */
  stream: boolean;
  /**
   * How the prepared call goes out when it is not one plain HTTP request (a native Responses call made on a client's
   * WebSocket goes over the upstream's WebSocket; its answer reads like the HTTP one); `sendUpstream` otherwise.
   */
  send?(call: UpstreamCall, options: SendOptions): Promise<UpstreamResponse>;
}
