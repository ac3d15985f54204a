import { describe, expect, it } from 'vitest';
import { canChat, modelKind } from './model-kind.js';

describe('modelKind', () => {
  it.each([
    ['gpt-4o-mini', 'chat'],
    ['claude-sonnet-4-20250514', 'chat'],
    ['gemini-2.5-flash', 'chat'],
    ['gemini-2.5-flash-image-preview', 'chat'],
    ['deepseek-reasoner', 'chat'],
    ['text-embedding-3-small', 'embedding'],
    ['gemini-embedding-001', 'embedding'],
    ['bge-large-zh-v1.5', 'embedding'],
    ['nomic-embed-text', 'embedding'],
    ['jina-reranker-v2-base-multilingual', 'rerank'],
    ['bge-reranker-v2-m3', 'rerank'],
    ['rerank-english-v3.0', 'rerank'],
    ['dall-e-3', 'image'],
    ['gpt-image-1', 'image'],
    ['imagen-3.0-generate-002', 'image'],
    ['flux-1.1-pro', 'image'],
    ['mj_imagine', 'image'],
    ['tts-1-hd', 'speech'],
    ['gpt-4o-mini-tts', 'speech'],
    ['whisper-1', 'transcription'],
    ['gpt-4o-transcribe', 'transcription'],
    ['omni-moderation-latest', 'moderation'],
    ['text-moderation-stable', 'moderation'],
  ])('%s is a %s model', (model, kind) => {
    expect(modelKind(model)).toBe(kind);
    expect(canChat(model)).toBe(kind === 'chat');
  });
});
