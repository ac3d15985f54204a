// The OpenAI wire format is the gateway's lingua franca: clients speak it, and every provider adapter converts
// to and from it. Only the fields the gateway reads are typed; everything else passes through untouched.

export interface ChatMessage {
  role: string;
  content:
    | string
    | Array<{ type: string; text?: string; image_url?: { url: string } | string; [key: string]: unknown }>
    | null;
  name?: string;
  tool_calls?: unknown[];
  tool_call_id?: string;
  [key: string]: unknown;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean; [key: string]: unknown };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string | string[];
  tools?: unknown[];
  [key: string]: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; [key: string]: unknown };
  [key: string]: unknown;
}

export interface ChatResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: ChatMessage; finish_reason: string | null }>;
  usage?: Usage;
}

/** A channel as the relay needs it: decrypted key, parsed JSON settings, defaults applied. */
export interface RuntimeChannel {
  id: number;
  type: number;
  name: string;
  baseUrl: string;
  key: string;
  other: string;
  organization: string | null;
}

/** An HTTP call to an upstream, fully described, so adapters stay pure and the sender does the I/O. */
export interface UpstreamCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** What an upstream said went wrong, in a provider-neutral form. */
export interface UpstreamError {
  status: number;
  message: string;
  type: string;
  code: string | null;
}
