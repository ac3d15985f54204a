import { type AdaptorKind, channelType } from '@gateway/shared';
import type { Provider } from '../provider.js';
import { claudeProvider } from './claude/adapter.js';
import { geminiProvider } from './gemini/adapter.js';
import { openAiProvider } from './openai/adapter.js';

// Ollama, Azure and the other OpenAI-compatible types are rows in openai/rows.ts; the others get their own folder.
const PROVIDERS: Partial<Record<AdaptorKind, Provider>> = {
  openai: openAiProvider,
  azure: openAiProvider,
  ollama: openAiProvider,
  'custom-url': openAiProvider,
  // DashScope's compatible mode (rows.ts gives its prefix) serves the OpenAI format.
  ali: openAiProvider,
  cloudflare: openAiProvider,
  claude: claudeProvider,
  gemini: geminiProvider,
};

// GLM-4 (26) speaks the OpenAI format under /api/paas/v4; the legacy Zhipu API (16) does not.
const BY_TYPE: Record<number, Provider> = { 26: openAiProvider };

/** The provider that serves a channel type, or undefined when the gateway cannot relay to it yet. */
export function providerFor(type: number): Provider | undefined {
  if (BY_TYPE[type]) return BY_TYPE[type];
  const kind = channelType(type)?.adaptor;
  return kind ? PROVIDERS[kind] : undefined;
}
