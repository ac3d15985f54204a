/** Cohere's v2 API (chat, embed, rerank), as far as the gateway reads or writes it. */

export type CohereContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: string } };

export interface CohereToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type CohereMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | CohereContentPart[] }
  | { role: 'assistant'; content?: string; tool_calls?: CohereToolCall[]; tool_plan?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface CohereChatRequest {
  model: string;
  messages: CohereMessage[];
  stream?: boolean;
  tools?: Array<{
    type: 'function';
    function: { name: string; description?: string; parameters: Record<string, unknown> };
  }>;
  strict_tools?: boolean;
  tool_choice?: 'REQUIRED' | 'NONE';
  max_tokens?: number;
  stop_sequences?: string[];
  temperature?: number;
  p?: number;
  k?: number;
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  response_format?: { type: 'text' | 'json_object'; json_schema?: unknown };
  thinking?: { type: 'enabled' | 'disabled'; token_budget?: number };
}

/**
 * Two counts per answer: `billed_units` is what Cohere charges the customer, `tokens` what the model really read and
 * wrote (the prompt template Cohere wraps around the messages included).
 */
export interface CohereUsage {
  billed_units?: { input_tokens?: number; output_tokens?: number; search_units?: number; images?: number };
  tokens?: { input_tokens?: number; output_tokens?: number };
  cached_tokens?: number;
}

export interface CohereChatAnswer {
  id?: string;
  finish_reason?: string;
  message?: {
    role?: string;
    content?: Array<{ type?: string; text?: string; thinking?: string }>;
    tool_calls?: CohereToolCall[];
    tool_plan?: string;
  };
  usage?: CohereUsage;
}

/** One event of a v2 chat stream (its `type` is also the SSE event name). */
export interface CohereStreamEvent {
  type?: string;
  id?: string;
  index?: number;
  delta?: {
    message?: {
      content?: { type?: string; text?: string; thinking?: string };
      tool_plan?: string;
      tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } };
    };
    finish_reason?: string;
    error?: string;
    usage?: CohereUsage;
  };
}

/** Embed and rerank answers report their usage under `meta`. */
export interface CohereMeta {
  api_version?: { version?: string };
  billed_units?: CohereUsage['billed_units'];
  tokens?: CohereUsage['tokens'];
  warnings?: string[];
}
