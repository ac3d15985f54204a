import { type AdaptorKind, channelType } from '@gateway/shared';
import type { ProviderAdapter } from '../types.js';
import { claudeAdapter } from './claude/adapter.js';
import { geminiAdapter } from './gemini/adapter.js';
import { openAiAdapter } from './openai/adapter.js';

// Ollama and Azure speak the OpenAI wire format (rows in openai/rows.ts); the others get their own folder.
const ADAPTERS: Partial<Record<AdaptorKind, ProviderAdapter>> = {
  openai: openAiAdapter,
  azure: openAiAdapter,
  ollama: openAiAdapter,
  'custom-url': openAiAdapter,
  // DashScope's compatible mode (rows.ts gives its prefix) serves the OpenAI format.
  ali: openAiAdapter,
  cloudflare: openAiAdapter,
  claude: claudeAdapter,
  gemini: geminiAdapter,
};

/** The adapter that serves a channel type, or undefined when the gateway cannot relay chat to it yet. */
// GLM-4 (26) speaks the OpenAI format under /api/paas/v4; the legacy Zhipu API (16) does not.
const BY_TYPE: Record<number, ProviderAdapter> = { 26: openAiAdapter };

export function adapterFor(type: number): ProviderAdapter | undefined {
  if (BY_TYPE[type]) return BY_TYPE[type];
  const kind = channelType(type)?.adaptor;
  return kind ? ADAPTERS[kind] : undefined;
}
