import type { Language } from '@gateway/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedChannel } from '../cache/channel-cache.js';
import type { AppContext } from '../context.js';
import type { RelayCaller } from './admission/caller.js';
import type { RelayError } from './errors.js';
import type { ModelSuffix } from './model-suffix.js';
import type { OptionReader, Provider } from './provider.js';
import type { Billing, ReserveInput } from './reserve.js';
import type { SendOptions, UpstreamResponse } from './send.js';
import type { ChunkConverter } from './stream/stream-state.js';
import type { UpstreamCall, Usage } from './types.js';

/**
 * An endpoint is data for the conveyor (pipeline.ts): how to read the client's request, and how to carry it out on
 * a channel's provider. The conveyor owns everything else: authentication, pricing and reservation, channel choice,
 * overrides, sending, retries, reading the answer, counting tokens the upstream did not report, settling, logging.
 */
export interface Endpoint<Request = unknown> {
  /** Who may call: an API key (default) or a console session (the playground). */
  authenticate?(ctx: AppContext, request: FastifyRequest, lang: Language): Promise<RelayCaller>;
  /**
   * Reads and checks the client's request (a RelayError 400 when it is unusable). Task follow-ups look their
   * original task up, so this may be async; model requests answer at once.
   */
  parse(
    request: FastifyRequest,
    lang: Language,
    caller: RelayCaller,
  ): ParsedRequest<Request> | Promise<ParsedRequest<Request>>;
  /** Task submits are not model requests: the model request rate limit leaves them alone (family). */
  modelRequest?: false;
  /** Only channels whose provider serves this endpoint are candidates (tasks: a drawing model on a chat channel). */
  serves?(provider: Provider): boolean;
  /**
   * How this request is carried out on the channel's provider, or null when the provider cannot serve it.
   * `upstreamModel` is the name after the channel's model mapping, without a model-name suffix the channel's
   * upstream understands; `suffix` says what that suffix asks (null: none), for the request to carry it out.
   */
  plan(
    provider: Provider,
    channel: CachedChannel,
    request: ParsedRequest<Request>,
    upstreamModel: string,
    options: OptionReader,
    suffix: ModelSuffix | null,
  ): Leg | null;
  /**
   * Clients of this endpoint read errors in their own shape (Midjourney's `{code, description}`, Suno's
   * `{code, message}`): refusals after authentication are answered here instead of by the app's error handler.
   */
  answerError?(reply: FastifyReply, error: RelayError, requestId: string): FastifyReply;
}

export interface ParsedRequest<Request> {
  model: string;
  stream: boolean;
  body: Request;
  /** What pricing and reserving need besides the model. */
  reserve: Omit<ReserveInput, 'model'>;
  /** Prompt tokens counted with the tokenizer, when the upstream reports no usage. */
  countPrompt(): Promise<number>;
  /** The client's JSON body as received, sent unchanged to channels in pass-through mode (JSON endpoints only). */
  rawBody?: unknown;
  /** Headers a native call carries over (Anthropic version and beta flags). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The caller's user id, for answers that leave something the caller owns upstream (a stored response). */
  ownerId?: number;
  /** Only this channel may serve (a task follow-up goes to the channel that holds the original task). */
  fixedChannelId?: number | null;
}

/** One upstream call and how its answer is read. */
export interface Leg {
  call: UpstreamCall;
  read: AnswerReader;
  /** Task APIs are not model requests: the channel's param override is for model requests only. */
  paramOverride?: false;
  /** Headers for the client's answer (which vendor-side tools the conversion had to leave out). */
  headers?: Record<string, string>;
  /**
   * Carries the call out another way than one HTTP request (a native Responses call made on a client's WebSocket
   * goes over the upstream's WebSocket); the answer reads like the HTTP one it replaces. A provider with its own
   * `open` is handed it as `send`.
   */
  open?(call: UpstreamCall, options: SendOptions): Promise<UpstreamResponse>;
}

/** What the client gets and what it costs, from a complete non-streaming answer. */
export interface ReadAnswer {
  /** The body for the client, already in its format. */
  body: string | Buffer;
  contentType: string;
  /** The upstream's usage, or null when it reported none (the conveyor then counts). */
  usage: Usage | null;
  /** The generated text, counted when there is no usage. */
  outputText: string;
}

export type AnswerReader =
  /** A JSON answer; an unreadable body is a 502 (one place: the conveyor). */
  | { kind: 'json'; convert(json: Record<string, unknown>, raw: string): ReadAnswer }
  /** Any text answer (transcriptions may be text, SRT or VTT). */
  | { kind: 'text'; convert(raw: string, contentType: string): ReadAnswer }
  /** Server-sent events, converted (or passed through) one by one. */
  | { kind: 'sse'; converter: ChunkConverter }
  /** Bytes streamed to the client as they come (speech), at a cost known up front. */
  | { kind: 'bytes'; usage: Usage }
  /**
   * An asynchronous task's submit answer: the endpoint records the task and says whether it was accepted (charged
   * its reserved price) or refused (nothing charged); either way the client gets `body`.
   */
  | {
      kind: 'task';
      accept(
        json: Record<string, unknown>,
        on: { channel: CachedChannel; billing: Billing; lang: Language },
      ): Promise<TaskVerdict>;
    };

export interface TaskVerdict {
  body: unknown;
  /**
   * The accepted task, charged its reserved price or `quota` when the vendor's terms decide it (a video's seconds
   * and size, `ratios` kept in the log); null when the upstream refused it (nothing is charged).
   */
  charged: TaskCharge | null;
}

export interface TaskCharge {
  action: string;
  taskId: string;
  quota?: number;
  ratios?: Record<string, number>;
}
