/** The Bedrock Converse wire format (`/converse`, `/converse-stream`), as far as the gateway writes or reads it. */

export interface ConverseImage {
  format: string;
  /** Base64 on the JSON wire. */
  source: { bytes: string };
}

export interface ConverseToolResult {
  toolUseId: string;
  content: Array<{ text: string } | { image: ConverseImage }>;
  status?: 'success' | 'error';
}

export type ConverseBlock =
  | { text: string }
  | { image: ConverseImage }
  | { document: { format: string; name: string; source: { bytes: string } } }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | { toolResult: ConverseToolResult }
  | { reasoningContent: { reasoningText?: { text: string; signature?: string }; redactedContent?: string } };

export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ConverseBlock[];
}

export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: Array<{ text: string }>;
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: {
    tools: Array<{ toolSpec: { name: string; description?: string; inputSchema: { json: unknown } } }>;
    toolChoice?: { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };
  };
  additionalModelRequestFields?: Record<string, unknown>;
}

export interface ConverseUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  cacheReadInputTokens?: number;
  cacheWriteInputTokens?: number;
}

/** A block of an answer: only the members the gateway reads. */
export interface ConverseAnswerBlock {
  text?: string;
  toolUse?: { toolUseId?: string; name?: string; input?: unknown };
  reasoningContent?: { reasoningText?: { text?: string; signature?: string } };
}

export interface ConverseResponse {
  output?: { message?: { role?: string; content?: ConverseAnswerBlock[] } };
  stopReason?: string;
  usage?: ConverseUsage;
}
