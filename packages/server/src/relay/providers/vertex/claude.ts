import { toClaudeRequest } from '../../formats/anthropic/request.js';
import type { ClaudeRequest } from '../../formats/anthropic/wire.js';
import { claudeDefaultMaxTokens } from '../../model-suffix.js';
import type { NativeFunction, OptionReader } from '../../provider.js';
import type { ChatRequest, RuntimeChannel, UpstreamCall } from '../../types.js';
import { claudeModelHeaders, withClaudeModelHeaders } from '../claude/settings.js';
import { withSuffixThinking } from '../claude/suffix-thinking.js';
import { isClaudeModel, vertexClaudeId } from './claude-models.js';
import { publisherUrl, vertexHeaders } from './location.js';

/** The Messages API version Vertex's Claude publisher speaks; it travels in the body, not in a header. */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

const DEFAULT_MAX_TOKENS = 8192;

/**
 * A Messages body as Vertex takes it: the model is in the URL, so the body has none, and `anthropic_version` names
 * Vertex's version of the API.
 */
export function toVertexClaudeBody(request: Record<string, unknown>): Record<string, unknown> {
  const { model: _model, ...rest } = request;
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest };
}

/** `:rawPredict`, or `:streamRawPredict` whose answer is Anthropic's own event stream. */
function claudeCall(
  channel: RuntimeChannel,
  model: string,
  stream: boolean,
  headers: Record<string, string>,
  body: Record<string, unknown>,
): UpstreamCall {
  const method = stream ? 'streamRawPredict' : 'rawPredict';
  return {
    method: 'POST',
    url: publisherUrl(channel, 'anthropic', vertexClaudeId(model), method, model),
    headers,
    body: JSON.stringify(toVertexClaudeBody(body)),
  };
}

/** OpenAI chat → Claude Messages (the Claude provider's converter) on Anthropic's Vertex publisher. */
export function claudeChatCall(channel: RuntimeChannel, request: ChatRequest, options?: OptionReader): UpstreamCall {
  const maxTokens = options ? claudeDefaultMaxTokens(options, request.model) : DEFAULT_MAX_TOKENS;
  const headers = withClaudeModelHeaders(vertexHeaders(channel), claudeModelHeaders(options, request.model));
  return claudeCall(channel, request.model, request.stream === true, headers, toClaudeRequest(request, maxTokens));
}

/**
 * `/v1/messages` clients on a Vertex channel: their body goes as it is but for the model and version. The client's
 * `anthropic-beta` flags pass on (Vertex honours them); its `anthropic-version` header does not, the body says it.
 * A Gemini model cannot answer in Messages natively: the conveyor reaches it through chat and converts.
 */
export const claudeMessages: NativeFunction<ClaudeRequest> = {
  serves: isClaudeModel,
  call(channel, request, upstreamModel, { stream, headers: client, options, suffix }) {
    const headers = vertexHeaders(channel);
    const beta = client['anthropic-beta'];
    if (typeof beta === 'string') headers['anthropic-beta'] = beta;
    withClaudeModelHeaders(headers, claudeModelHeaders(options, upstreamModel));
    const body = withSuffixThinking({ ...request, model: upstreamModel }, suffix);
    return claudeCall(channel, upstreamModel, stream, headers, body);
  },
};
