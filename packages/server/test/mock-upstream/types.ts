import type { RealtimeMode } from './realtime.js';
import type { ResponsesSocketMode } from './responses-socket.js';
/** Public types of the mock upstream. Kept apart so provider files can share them without import cycles. */

export type RouteKey =
  | 'openai.chat'
  | 'openai.completions'
  | 'openai.embeddings'
  | 'openai.moderations'
  | 'openai.images'
  | 'openai.speech'
  | 'openai.transcriptions'
  | 'openai.translations'
  | 'openai.rerank'
  | 'openai.responses'
  | 'openai.responses.compact'
  | 'openai.responses.stored'
  | 'openai.models'
  | 'azure.chat'
  | 'claude.messages'
  | 'claude.models'
  | 'gemini.generate'
  | 'gemini.stream'
  | 'gemini.embed'
  | 'gemini.models'
  | 'ollama.tags'
  | 'balance.openai'
  | 'balance.deepseek'
  | 'balance.openrouter'
  | 'balance.siliconflow'
  | 'balance.moonshot'
  | 'mj.submit'
  | 'mj.fetch'
  | 'mj.image'
  | 'suno.submit'
  | 'suno.fetch';

export interface UsageOverride {
  prompt: number;
  completion: number;
  cached?: number;
}

export interface OkBehaviour {
  kind: 'ok';
  text?: string;
  usage?: UsageOverride | 'none';
  delayMs?: number;
  chunkDelayMs?: number;
  reasoning?: string;
  toolCall?: { name: string; arguments: string };
}

export type Behaviour =
  | OkBehaviour
  | { kind: 'status'; status: number; message?: string; type?: string; code?: string }
  | { kind: 'hang' }
  | { kind: 'reset-before' }
  | { kind: 'reset-after-chunks'; chunks: number }
  | { kind: 'malformed' }
  | { kind: 'balance'; value: number };

/** The behaviours a provider handler itself acts on; status, hang and reset-before are handled before it runs. */
export type AnswerBehaviour = Extract<Behaviour, { kind: 'ok' | 'reset-after-chunks' | 'malformed' | 'balance' }>;

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  size: number;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: MultipartFile[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; repeated headers are joined with ', '. */
  headers: Record<string, string>;
  /** Parsed JSON, `{fields, files}` for multipart or url-encoded forms, the raw string otherwise, undefined when empty. */
  body: unknown;
  /** The body's bytes as UTF-8 text, exactly as they arrived (byte-stability checks compare these). */
  rawText: string;
  receivedAt: number;
  /** The client went away before the answer finished (never set for resets the mock itself did). */
  aborted: boolean;
}

export interface MockUpstream {
  baseUrl: string;
  requests: RecordedRequest[];
  /** The WebSocket mode of `/v1/responses`: refuse the upgrade, count the connections (responses-socket.ts). */
  responsesSocket: ResponsesSocketMode;
  /** The Realtime WebSocket (realtime.ts). */
  realtime: RealtimeMode;
  enqueue(route: RouteKey, ...behaviours: Behaviour[]): void;
  setDefault(route: RouteKey, behaviour: Behaviour | null): void;
  reset(): void;
  openRequests(): number;
  close(): Promise<void>;
}
