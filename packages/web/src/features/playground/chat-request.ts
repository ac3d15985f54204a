import type { ChatMessage, ChatRequestBody, PlaygroundGroups } from './types';

export const DEFAULT_MODEL = 'gpt-4o-mini';
export const DEFAULT_TEMPERATURE = 0;
export const DEFAULT_MAX_TOKENS = 0;
/** The slider's range. The spec gives 0.1–1 but also a default of 0, so the range starts at 0 to show it. */
export const TEMPERATURE = { min: 0, max: 1, step: 0.1 } as const;

/** The model to preselect: the spec's default when the caller may use it, else the first one offered. */
export function defaultModel(models: readonly string[]): string {
  return models.includes(DEFAULT_MODEL) ? DEFAULT_MODEL : (models[0] ?? '');
}

/** The group to preselect: the user's own group, else `default`, else the first one offered. */
export function defaultGroup(groups: PlaygroundGroups, userGroup: string | undefined): string {
  const names = Object.keys(groups);
  if (userGroup && names.includes(userGroup)) return userGroup;
  if (names.includes('default')) return 'default';
  return names[0] ?? '';
}

/** Earlier turns worth sending: the greeting is decoration, failed or empty answers are not context. */
export function historyOf(messages: readonly ChatMessage[]): ChatRequestBody['messages'] {
  return messages
    .filter((message) => !message.greeting && message.state === 'complete' && message.content.trim() !== '')
    .map((message) => ({ role: message.role, content: message.content }));
}

export interface RequestSettings {
  model: string;
  group: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
}

/** The request body: the system prompt first, then the conversation; max_tokens only when set. */
export function buildChatBody(settings: RequestSettings, messages: readonly ChatMessage[]): ChatRequestBody {
  const system = settings.systemPrompt.trim();
  const maxTokens = Math.trunc(settings.maxTokens);
  return {
    messages: [
      ...(system ? [{ role: 'system' as const, content: settings.systemPrompt }] : []),
      ...historyOf(messages),
    ],
    stream: true,
    model: settings.model,
    group: settings.group,
    temperature: settings.temperature,
    ...(maxTokens > 0 ? { max_tokens: maxTokens } : {}),
  };
}
