import type { ClaudeRequest } from '../../formats/anthropic/wire.js';
import type { NativeContext } from '../../provider.js';
import type { RuntimeChannel, UpstreamCall } from '../../types.js';
import { claudeUpstreamSettings } from '../claude/settings.js';
import { withSuffixThinking } from '../claude/suffix-thinking.js';
import { modelUrl } from './key.js';
import { bedrockModelId } from './model-ids.js';

/** The Messages API version Bedrock's Claude models take, in the body instead of a header. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** `anthropic-beta` values (a header's comma list) as the array Bedrock takes in the body. */
const betaList = (header: string | undefined) =>
  (header ?? '')
    .split(',')
    .map((flag) => flag.trim())
    .filter(Boolean);

/**
 * Anthropic Messages through InvokeModel (`/invoke`, or `/invoke-with-response-stream` for a stream): Anthropic's
 * body without `model` (it is in the path) and `stream` (the path says it), with `anthropic_version` and the beta
 * flags (the client's `anthropic-beta` and the model's configured ones) in the body, where Bedrock reads them.
 */
export function bedrockMessagesCall(
  channel: RuntimeChannel,
  request: ClaudeRequest,
  upstreamModel: string,
  context: NativeContext,
): UpstreamCall {
  const {
    model: _model,
    stream: _stream,
    ...body
  } = withSuffixThinking({ ...request, model: upstreamModel }, context.suffix);
  const configured = claudeUpstreamSettings(context.options, upstreamModel).headers['anthropic-beta'];
  const client = context.headers['anthropic-beta'];
  const betas = [...new Set([...betaList(typeof client === 'string' ? client : undefined), ...betaList(configured)])];
  const wire: Record<string, unknown> = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...body };
  if (betas.length && wire.anthropic_beta === undefined) wire.anthropic_beta = betas;
  const modelId = bedrockModelId(upstreamModel, channel.key);
  return {
    method: 'POST',
    url: modelUrl(channel, modelId, context.stream ? 'invoke-with-response-stream' : 'invoke'),
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(wire),
  };
}
