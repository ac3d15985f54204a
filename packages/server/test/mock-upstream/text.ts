import type { AnswerBehaviour, OkBehaviour } from './types.js';

/**
 * Deterministic text and token arithmetic. Tests compute expected billing by hand, so every number here is a
 * plain word count that a person can redo on paper:
 *   prompt     = words in every input text + 3 per input message
 *   completion = words of the reply + words of the reasoning + words of a tool call's name and arguments
 */

export function countWords(text: string | undefined | null): number {
  if (!text) return 0;
  return text.split(/\s+/).filter(Boolean).length;
}

/** Word plus its following whitespace; joined back together they give the text unchanged. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

/** The `ok` options of any answer behaviour (reset-after-chunks and malformed answer like a plain success). */
export function okOptions(behaviour: AnswerBehaviour): OkBehaviour {
  return behaviour.kind === 'ok' ? behaviour : { kind: 'ok' };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a content value in the shapes the providers accept: a string, or an array of parts with `text`. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        isRecord(part) && typeof part.text === 'string' ? part.text : typeof part === 'string' ? part : '',
      )
      .join(' ');
  }
  return '';
}

export interface PromptCount {
  words: number;
  messages: number;
}

export function promptTokens(count: PromptCount): number {
  return count.words + 3 * count.messages;
}

/** What the mock "generated" for one request, with the numbers every provider format derives from. */
export interface Reply {
  model: string;
  text: string;
  reasoning?: string;
  toolCall?: { name: string; arguments: string };
  /** null when the behaviour asked for no usage block at all. */
  usage: { prompt: number; completion: number; cached: number; reasoning: number } | null;
  chunkDelayMs: number;
}

export function buildReply(provider: string, model: string, behaviour: AnswerBehaviour, prompt: PromptCount): Reply {
  const ok = okOptions(behaviour);
  // A tool call replaces the default sentence: the model "answers" with the call unless the test gave text too.
  const text = ok.text ?? (ok.toolCall ? '' : `Hello from ${provider} mock: ${model}`);
  const reasoningWords = countWords(ok.reasoning);
  const toolWords = ok.toolCall ? countWords(ok.toolCall.name) + countWords(ok.toolCall.arguments) : 0;
  let usage: Reply['usage'];
  if (ok.usage === 'none') usage = null;
  else if (ok.usage) {
    usage = {
      prompt: ok.usage.prompt,
      completion: ok.usage.completion,
      cached: ok.usage.cached ?? 0,
      reasoning: Math.min(reasoningWords, ok.usage.completion),
    };
  } else {
    usage = {
      prompt: promptTokens(prompt),
      completion: countWords(text) + reasoningWords + toolWords,
      cached: 0,
      reasoning: reasoningWords,
    };
  }
  return {
    model,
    text,
    reasoning: ok.reasoning,
    toolCall: ok.toolCall,
    usage,
    chunkDelayMs: ok.chunkDelayMs ?? 0,
  };
}

let counter = 0;
/** Unique, readable ids (`chatcmpl-mock17`); the prefix keeps each provider's id style. */
export function mockId(prefix: string): string {
  counter += 1;
  return `${prefix}mock${counter}`;
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** FNV-1a: a stable hash so the same input always gets the same embedding. */
function hash(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** 8 floats in [-1, 1), multiples of 1/128 so they survive a float32 round trip (the base64 encoding) exactly. */
export function embeddingFor(text: string): number[] {
  return Array.from({ length: 8 }, (_, i) => ((hash(text, i) % 256) - 128) / 128);
}

export function embeddingBase64(values: number[]): string {
  return Buffer.from(new Float32Array(values).buffer).toString('base64');
}
