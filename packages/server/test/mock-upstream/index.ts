/**
 * Test-only mock AI providers (OpenAI, Azure OpenAI, Anthropic, Gemini, Ollama, Midjourney proxy, Suno and the
 * balance endpoints) that speak each provider's real wire format, fail on demand and record what they received. See README.md beside
 * this file for the routes, behaviours and the token arithmetic tests use to compute expected billing.
 */
export { DEFAULT_BALANCE, OPENAI_USED_USD, OPENROUTER_USAGE } from './balance.js';
export { CLAUDE_MODELS } from './claude.js';
export { GEMINI_MODELS } from './gemini.js';
export { OLLAMA_MODELS } from './ollama.js';
export { audioDuration, OPENAI_MODELS, speechBytes } from './openai-media.js';
export { gradientPng } from './png.js';
export { INVALID_KEY, QUOTA_KEY } from './route.js';
export { startMockUpstream } from './server.js';
export { countWords, embeddingFor, splitWords } from './text.js';
export type {
  Behaviour,
  MockUpstream,
  MultipartBody,
  MultipartFile,
  OkBehaviour,
  RecordedRequest,
  RouteKey,
  UsageOverride,
} from './types.js';
