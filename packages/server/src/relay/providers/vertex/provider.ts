import { fromClaudeResponse } from '../../formats/anthropic/response.js';
import { claudeToOpenAi } from '../../formats/anthropic/stream-to-openai.js';
import { fromGeminiResponse } from '../../formats/gemini/response.js';
import { geminiToOpenAi } from '../../formats/gemini/stream-to-openai.js';
import { familySuffixDialect } from '../../model-suffix.js';
import type { Provider } from '../../provider.js';
import { sendUpstream } from '../../send.js';
import { wholeResponse } from '../refusal-in-body.js';
import { isServiceAccountKey, serviceAccountOf } from './account.js';
import { claudeChatCall, claudeMessages } from './claude.js';
import { isClaudeModel } from './claude-models.js';
import { vertexEmbeddings } from './embeddings.js';
import { keyRefusal, vertexError } from './errors.js';
import { geminiChatCall, geminiGenerateContent } from './gemini.js';
import { forgetVertexToken, vertexAccessToken } from './token.js';

/**
 * Google Vertex AI (type 41): Gemini on Google's publisher (generateContent) and Claude on Anthropic's (rawPredict),
 * chosen by the model's name; chat is converted by the Gemini and Claude providers' converters, Gemini and Claude
 * clients are served natively. The key is a service-account JSON, exchanged for an OAuth access token (cached per
 * key) by a signed JWT; a key that is no JSON is a Vertex API key (express mode) and travels as it is.
 */
export const vertexProvider: Provider = {
  suffixDialect: familySuffixDialect,
  functions: {
    chat: {
      call: (channel, request, options) =>
        isClaudeModel(request.model)
          ? claudeChatCall(channel, request, options)
          : geminiChatCall(channel, request, options),
      answer: (json, model) =>
        isClaudeModel(model) ? fromClaudeResponse(json, model) : fromGeminiResponse(json, model),
      stream: (model, forwardUsage) =>
        isClaudeModel(model) ? claudeToOpenAi(model, forwardUsage) : geminiToOpenAi(model, forwardUsage),
    },
    messages: claudeMessages,
    generateContent: geminiGenerateContent,
    embeddings: vertexEmbeddings,
  },
  error: vertexError,
  async open(call, channel, options) {
    if (!isServiceAccountKey(channel.key)) return sendUpstream(call, options);
    const account = serviceAccountOf(channel.key);
    // A key that cannot sign is the channel's credentials failing: 401, so it can be disabled and the admin told.
    if ('problem' in account) return wholeResponse(401, keyRefusal(account.problem));
    const token = await vertexAccessToken(account, channel.key, options.timeoutMs);
    if (typeof token !== 'string') return token;
    const headers: Record<string, string> = { ...call.headers, authorization: `Bearer ${token}` };
    // As Google's auth libraries do: a key naming a quota project bills that project.
    if (account.quotaProjectId) headers['x-goog-user-project'] = account.quotaProjectId;
    const response = await sendUpstream({ ...call, headers }, options);
    if (response.statusCode === 401) forgetVertexToken(channel.key);
    return response;
  },
};
