import type { ChatRequest } from '../../types.js';

/**
 * Tools that run on a vendor's own side (Anthropic's web search, Google Search, OpenAI's hosted web search…) cannot
 * be offered by a channel of another provider. Refusing them would break every coding agent that declares them by
 * default, so they are left out of the converted request and named in the answer's `x-gateway-omitted-tools` header:
 * the model simply cannot call them, and the client is told which. Kept beside the converted request, never in it.
 */
const omitted = new WeakMap<ChatRequest, string[]>();

export function noteOmittedTools(request: ChatRequest, names: readonly string[]): void {
  if (names.length) omitted.set(request, [...(omitted.get(request) ?? []), ...names]);
}

export function omittedTools(request: ChatRequest): readonly string[] {
  return omitted.get(request) ?? [];
}

export const OMITTED_TOOLS_HEADER = 'x-gateway-omitted-tools';
