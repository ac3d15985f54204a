import { familySuffixDialect } from '../../model-suffix.js';
import type { Provider } from '../../provider.js';
import { claudeUpstreamSettings } from '../claude/settings.js';
import { toConverseRequest } from './converse-request.js';
import { fromConverseResponse } from './converse-response.js';
import { converseToOpenAi } from './converse-stream.js';
import { bedrockError } from './errors.js';
import { modelUrl } from './key.js';
import { bedrockMessagesCall } from './messages.js';
import { bedrockModelId, isClaudeModel } from './model-ids.js';
import { openBedrock } from './transport.js';

/**
 * AWS Bedrock (type 33). The key is `AccessKeyId|SecretAccessKey|Region` (each call SigV4-signed as it is sent, so
 * a parameter override keeps it valid) or `APIKey|Region`. Chat goes through Converse, which every model family on
 * Bedrock answers; Anthropic Messages clients reach Claude natively through InvokeModel. Claude names map to Bedrock
 * ids, with the region's cross-region inference profile where the model has one.
 */
export const bedrockProvider: Provider = {
  suffixDialect: familySuffixDialect,
  functions: {
    chat: {
      call(channel, request, options) {
        const modelId = bedrockModelId(request.model, channel.key);
        const defaultMaxTokens = claudeUpstreamSettings(options, request.model).defaultMaxTokens;
        return {
          method: 'POST',
          url: modelUrl(channel, modelId, request.stream ? 'converse-stream' : 'converse'),
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(toConverseRequest(request, modelId, defaultMaxTokens)),
        };
      },
      answer: fromConverseResponse,
      stream: converseToOpenAi,
    },
    // Other model families answer Messages clients through Converse (the conveyor converts).
    messages: { serves: isClaudeModel, call: bedrockMessagesCall },
  },
  error: bedrockError,
  open: openBedrock,
};
