import { InvalidJson } from './body.js';
import type { Exchange } from './exchange.js';
import { chatCompletions, jsonBody } from './openai.js';
import { type ErrorReply, type ErrorSpec, INVALID_KEY, QUOTA_KEY, type Route } from './route.js';
import { isRecord } from './text.js';

const AZURE_MESSAGES: Record<number, string> = {
  401: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
  404: 'Resource not found',
  429: 'Requests to the ChatCompletions_Create Operation under Azure OpenAI API have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 1 second.',
  500: 'The server had an error while processing your request. Sorry about that!',
};

/** Azure's gateway errors: `{"error":{"code":"401","message":…}}`, the code being the status as a string. */
export function azureError(spec: ErrorSpec): ErrorReply {
  return {
    status: spec.status,
    body: {
      error: {
        code: spec.code ?? String(spec.status),
        message: spec.message ?? AZURE_MESSAGES[spec.status] ?? `Upstream failed with status ${spec.status}.`,
        ...(spec.type ? { type: spec.type } : {}),
      },
    },
    headers: { 'apim-request-id': `mock-${Date.now()}` },
  };
}

/** `api-key` header and `api-version` query are both required, as on a real Azure OpenAI resource. */
function azureCheck(ex: Exchange): ErrorReply | null {
  const key = ex.headers['api-key'];
  if (!key || key === INVALID_KEY) return azureError({ status: 401 });
  if (key === QUOTA_KEY) {
    return azureError({
      status: 429,
      code: 'insufficient_quota',
      message: 'You exceeded your current quota, please check your plan and billing details.',
    });
  }
  if (!ex.query['api-version']) return azureError({ status: 404 });
  if (ex.body instanceof InvalidJson || !isRecord(ex.body)) {
    return azureError({ status: 400, code: 'BadRequest', message: 'Invalid JSON in request body.' });
  }
  if (!Array.isArray(ex.body.messages)) {
    return azureError({ status: 400, code: 'BadRequest', message: "Missing required parameter: 'messages'." });
  }
  return null;
}

export const azureRoutes: Route[] = [
  {
    key: 'azure.chat',
    method: 'POST',
    match: (path) => {
      const match = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(path);
      return match ? { deployment: decodeURIComponent(match[1]) } : null;
    },
    error: azureError,
    check: azureCheck,
    // The deployment names the model when the body has none (Azure ignores the body's model field).
    handle: (ex) => {
      const model = jsonBody(ex).model;
      return chatCompletions(
        ex,
        { provider: 'azure', azure: true },
        typeof model === 'string' ? model : ex.params.deployment,
      );
    },
  },
];
