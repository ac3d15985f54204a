import { type AdaptorKind, channelType } from '@gateway/shared';
import type { SuffixDialect } from '../model-suffix.js';
import type { Provider, VideoFunction } from '../provider.js';
import { baiduProvider } from './baidu/provider.js';
import { bedrockProvider } from './bedrock/provider.js';
import { claudeProvider } from './claude/provider.js';
import { codexProvider } from './codex/provider.js';
import { cohereProvider } from './cohere/provider.js';
import { cozeProvider } from './coze/provider.js';
import { difyProvider } from './dify/provider.js';
import { doubaoVideoProvider } from './doubao-video/provider.js';
import { seedanceVideo } from './doubao-video/video.js';
import { geminiProvider } from './gemini/provider.js';
import { geminiVideo } from './gemini/video.js';
import { jimengProvider } from './jimeng/provider.js';
import { jinaProvider } from './jina/provider.js';
import { klingProvider } from './kling/provider.js';
import { midjourneyProvider } from './midjourney/provider.js';
import { minimaxVideo } from './minimax/video.js';
import { openAiCompatibleProvider, openAiProvider } from './openai/provider.js';
import { replicateProvider } from './replicate/provider.js';
import { soraProvider } from './sora/provider.js';
import { azureSoraVideo, openAiSoraVideo } from './sora/video.js';
import { sunoProvider } from './suno/provider.js';
import { tencentProvider } from './tencent/provider.js';
import { vertexProvider } from './vertex/provider.js';
import { vertexVideo } from './vertex/video.js';
import { viduProvider } from './vidu/provider.js';
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

/**
 * Video vendors. A type that serves only video (Kling, Sora…) is its folder's provider, by the type's name; a type
 * that also chats (OpenAI, Gemini, MiniMax…) keeps its chat provider and gains the folder's video function. A new
 * video vendor is its folder plus a row in one of these two tables.
 */
const VIDEO_PROVIDERS: Record<string, Provider> = {
  Sora: soraProvider,
  Kling: klingProvider,
  Jimeng: jimengProvider,
  Vidu: viduProvider,
  DoubaoVideo: doubaoVideoProvider,
};
const VIDEO_FUNCTIONS: Record<string, VideoFunction> = {
  OpenAI: openAiSoraVideo,
  Azure: azureSoraVideo,
  VolcEngine: seedanceVideo,
  Gemini: geminiVideo,
  VertexAi: vertexVideo,
  MiniMax: minimaxVideo,
};

const resolved = new Map<number, Provider | undefined>();

/** The suffixes a channel type's upstream understands for a model, as its provider declares them. */
export function suffixDialectOf(type: number, model: string): SuffixDialect | undefined {
  return providerFor(type)?.suffixDialect?.(model);
}

/** The provider that serves a channel type, or undefined when the gateway cannot relay to it yet. */
export function providerFor(type: number): Provider | undefined {
  // Resolved once per type: the relay asks on every request, and a merged provider must stay one object.
  if (resolved.has(type)) return resolved.get(type);
  const provider = resolve(type);
  resolved.set(type, provider);
  return provider;
}

function resolve(type: number): Provider | undefined {
  const row = channelType(type);
  if (!row) return undefined;
  const videoOnly = VIDEO_PROVIDERS[row.name];
  if (videoOnly) return videoOnly;
  const base = row.openAi ? (row.openAi.responses ? openAiProvider : openAiCompatibleProvider) : PROVIDERS[row.adaptor];
  const video = VIDEO_FUNCTIONS[row.name];
  if (!base || !video) return base;
  return { ...base, functions: { ...base.functions, video } };
}
