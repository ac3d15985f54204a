/** The OpenAI Responses API wire format, as far as the gateway reads or writes it. */

export type ResponsesContent =
  | { type: 'input_text' | 'output_text'; text: string }
  | { type: 'input_image'; image_url?: string; file_id?: string; detail?: string }
  | { type: 'input_file'; file_data?: string; file_id?: string; filename?: string }
  | { type: 'refusal'; refusal: string }
  | { type: string; [key: string]: unknown };

export type ResponsesItem =
  | { type?: 'message'; role: string; content: string | ResponsesContent[]; id?: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string }
  | { type: 'function_call_output'; call_id: string; output: string | ResponsesContent[] }
  | { type: 'custom_tool_call'; call_id: string; name: string; input: string; id?: string }
  | { type: 'custom_tool_call_output'; call_id: string; output: string | ResponsesContent[] }
  | {
      type: 'reasoning';
      id?: string;
      summary?: Array<{ type: string; text: string }>;
      encrypted_content?: string | null;
    }
  | { type: string; [key: string]: unknown };

export type ResponsesTool =
  | { type: 'function'; name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean }
  | { type: 'custom'; name: string; description?: string; format?: unknown }
  | { type: string; [key: string]: unknown };

export interface ResponsesRequest {
  model: string;
  input?: string | ResponsesItem[];
  instructions?: string;
  tools?: ResponsesTool[];
  tool_choice?:
    | 'auto'
    | 'none'
    | 'required'
    | { type: string; name?: string; mode?: string; tools?: Array<{ type: string; name?: string }> };
  parallel_tool_calls?: boolean;
  max_output_tokens?: number;
  temperature?: number;
  top_p?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  top_logprobs?: number;
  max_tool_calls?: number;
  truncation?: 'auto' | 'disabled';
  stream?: boolean;
  store?: boolean;
  background?: boolean;
  service_tier?: string;
  metadata?: Record<string, string>;
  previous_response_id?: string;
  prompt_cache_key?: string;
  prompt_cache_retention?: string;
  safety_identifier?: string;
  reasoning?: { effort?: string | null; summary?: string | null; [key: string]: unknown };
  text?: {
    format?: { type: string; name?: string; description?: string; schema?: unknown; strict?: boolean };
    verbosity?: string;
    [key: string]: unknown;
  };
  user?: string;
  [key: string]: unknown;
}

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}
