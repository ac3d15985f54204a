/** The Anthropic Messages wire format, as far as the gateway reads or writes it. */

export type ClaudeSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type?: string; data: string };

export type ClaudeBlock =
  | { type: 'text'; text: string; cache_control?: unknown; citations?: unknown }
  | { type: 'image'; source: ClaudeSource; cache_control?: unknown }
  | { type: 'document'; source: ClaudeSource; title?: string; cache_control?: unknown }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: unknown }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content?: string | ClaudeBlock[];
      is_error?: boolean;
      cache_control?: unknown;
    }
  | { type: string; [key: string]: unknown };

export interface ClaudeMessage {
  role: 'user' | 'assistant';
  content: string | ClaudeBlock[];
}

export interface ClaudeTool {
  name: string;
  description?: string;
  input_schema?: Record<string, unknown>;
  /** Server and client tools of Anthropic's own (`web_search_20250305`, `bash_20250124`, …) carry a type. */
  type?: string;
  cache_control?: unknown;
}

export type ClaudeToolChoice =
  | { type: 'auto'; disable_parallel_tool_use?: boolean }
  | { type: 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface ClaudeRequest {
  model: string;
  max_tokens: number;
  messages: ClaudeMessage[];
  system?: string | Array<{ type: string; text?: string; cache_control?: unknown }>;
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  tools?: ClaudeTool[];
  tool_choice?: ClaudeToolChoice;
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };
  metadata?: { user_id?: string };
  [key: string]: unknown;
}

export interface ClaudeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export interface ClaudeResponse {
  id?: string;
  type?: string;
  role?: string;
  model?: string;
  content?: ClaudeBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: ClaudeUsage;
}

/** Blocks of a message whose content may be a plain string. */
export function blocksOf(content: string | ClaudeBlock[] | undefined): ClaudeBlock[] {
  if (content === undefined) return [];
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}
