// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { UserGroupsView as PlaygroundGroups } from '@gateway/shared';

export type { PlaygroundGroups };

export interface PlaygroundSettings {
  /** '' until the groups arrive; then the chosen (or default) group. */
  group: string;
  model: string;
  temperature: number;
  /** 0 means "not sent" (the model's own limit applies). */
  maxTokens: number;
  /** null: the translated default prompt, following the interface language until the user edits it. */
  systemPrompt: string | null;
}

/** Spec 001 §4: loading, then incomplete while chunks append, then complete, or error. */
export type MessageState = 'loading' | 'incomplete' | 'complete' | 'error';

export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  /** `delta.reasoning_content` of reasoning models, shown folded. */
  reasoning: string;
  state: MessageState;
  error?: string;
  /** The user stopped the answer; what arrived until then is kept. */
  stopped?: boolean;
  /** The opening greeting: shown, never sent. */
  greeting?: boolean;
}

/** `POST /pg/chat/completions` body (spec 001 §3, Playground request). */
export interface ChatRequestBody {
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  stream: true;
  model: string;
  group: string;
  temperature: number;
  max_tokens?: number;
}
