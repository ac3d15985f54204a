// The OpenAI wire format is the gateway's lingua franca: clients speak it, and every provider adapter converts
// to and from it. Only the fields the gateway reads are typed; everything else passes through untouched.

export interface ChatContentPart {
  type: string;
  text?: string;
  image_url?: { url: string; detail?: string } | string;
  /** `file` parts (PDF and other documents): inline data URL or an uploaded file id. */
  file?: { file_data?: string; file_id?: string; filename?: string };
  [key: string]: unknown;
}

export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: string;
  content: string | ChatContentPart[] | null;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  /**
   * The model's reasoning, as OpenAI-compatible reasoning models (DeepSeek, Qwen, …) return it. The gateway's hub
   * format also carries it on requests, so a conversation converted between formats keeps its thinking.
   */
  reasoning_content?: string;
  /**
   * Opaque proof that came with the reasoning (Claude's thinking `signature`): providers that issued it need it back
   * on the next turn; others ignore it. A gateway extension of the OpenAI format.
   */
  reasoning_signature?: string;
  [key: string]: unknown;
}

/** An OpenAI function tool. */
export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

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
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  reasoning_effort?: 'minimal' | 'low' | 'medium' | 'high' | string;
  response_format?: { type: 'text' | 'json_object' | 'json_schema'; json_schema?: { name?: string; schema?: unknown } };
  [key: string]: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; [key: string]: unknown };
  completion_tokens_details?: { reasoning_tokens?: number; [key: string]: unknown };
  /** Tokens written to a prompt cache (Claude's cache_creation_input_tokens), priced apart. */
  cache_creation_tokens?: number;
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
  /** The channel's `setting` JSON, for a provider that reads a per-channel switch (claude_cache_breakpoints). */
  setting?: Record<string, unknown> | null;
}

/** An HTTP call to an upstream, fully described, so adapters stay pure and the sender does the I/O. */
export interface UpstreamCall {
  method: 'GET' | 'POST' | 'DELETE';
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
