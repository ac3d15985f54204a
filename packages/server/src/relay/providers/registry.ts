import { type AdaptorKind, channelType } from '@gateway/shared';
import type { SuffixDialect } from '../model-suffix.js';
import type { Provider } from '../provider.js';
import { baiduProvider } from './baidu/provider.js';
import { bedrockProvider } from './bedrock/provider.js';
import { claudeProvider } from './claude/provider.js';
import { codexProvider } from './codex/provider.js';
import { cohereProvider } from './cohere/provider.js';
import { cozeProvider } from './coze/provider.js';
import { difyProvider } from './dify/provider.js';
import { geminiProvider } from './gemini/provider.js';
import { jinaProvider } from './jina/provider.js';
import { midjourneyProvider } from './midjourney/provider.js';
import { openAiCompatibleProvider, openAiProvider } from './openai/provider.js';
import { replicateProvider } from './replicate/provider.js';
import { sunoProvider } from './suno/provider.js';
import { tencentProvider } from './tencent/provider.js';
import { vertexProvider } from './vertex/provider.js';
import { xunfeiProvider } from './xunfei/provider.js';
import { zhipuProvider } from './zhipu/provider.js';

// A provider with its own wire format has a folder; every type that speaks the OpenAI format is one row of the
// shared channel table (its `openAi` quirks) and is served by the OpenAI provider.
const PROVIDERS: Partial<Record<AdaptorKind, Provider>> = {
  claude: claudeProvider,
  gemini: geminiProvider,
  midjourney: midjourneyProvider,
  suno: sunoProvider,
  baidu: baiduProvider,
  zhipu: zhipuProvider,
  tencent: tencentProvider,
  xunfei: xunfeiProvider,
  aws: bedrockProvider,
  cohere: cohereProvider,
  jina: jinaProvider,
  vertex: vertexProvider,
  dify: difyProvider,
  coze: cozeProvider,
  codex: codexProvider,
  replicate: replicateProvider,
};

/** The suffixes a channel type's upstream understands for a model, as its provider declares them. */
export function suffixDialectOf(type: number, model: string): SuffixDialect | undefined {
  return providerFor(type)?.suffixDialect?.(model);
}

/** The provider that serves a channel type, or undefined when the gateway cannot relay to it yet. */
export function providerFor(type: number): Provider | undefined {
  const row = channelType(type);
  if (!row) return undefined;
  if (row.openAi) return row.openAi.responses ? openAiProvider : openAiCompatibleProvider;
  return PROVIDERS[row.adaptor];
}
