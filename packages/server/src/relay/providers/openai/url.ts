import { channelType, type OpenAiQuirks } from '@gateway/shared';
import type { RuntimeChannel } from '../../types.js';

const AZURE_DEFAULT_API_VERSION = '2025-04-01-preview';

type UrlShape = NonNullable<OpenAiQuirks['urlShape']>;

/** The URL shapes that are not base + prefix + route (the quirk is data in the channel row; the code lives here). */
const SHAPES: Record<UrlShape, (base: string, route: string, model: string, other: string) => string> = {
  'azure-deployment': (base, route, model, other) => {
    const version = other || AZURE_DEFAULT_API_VERSION;
    if (route === '/models') return `${base}/openai/models?api-version=${version}`;
    // Realtime names the deployment in the query, not the path.
    if (route === '/realtime')
      return `${base}/openai/realtime?api-version=${version}&deployment=${encodeURIComponent(model)}`;
    return `${base}/openai/deployments/${encodeURIComponent(model)}${route}?api-version=${version}`;
  },
  // The operator typed the whole request URL, with {model} where the model goes.
  'full-url': (base, _route, model) => base.replaceAll('{model}', encodeURIComponent(model)),
  'cloudflare-account': (base, route, _model, other) =>
    `${base}/client/v4/accounts/${encodeURIComponent(other)}/ai/v1${route}`,
};

const NO_QUIRKS: OpenAiQuirks = {};

export function openAiQuirks(type: number): OpenAiQuirks {
  return channelType(type)?.openAi ?? NO_QUIRKS;
}

export function openAiUrl(channel: RuntimeChannel, route: string, model = ''): string {
  const quirks = openAiQuirks(channel.type);
  const base = channel.baseUrl || channelType(channel.type)?.defaultBaseUrl || '';
  if (quirks.urlShape) return SHAPES[quirks.urlShape](base, route, model, channel.other);
  return `${base}${quirks.prefix ?? '/v1'}${route}`;
}

export function openAiHeaders(channel: RuntimeChannel): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (openAiQuirks(channel.type).keyHeader === 'api-key') headers['api-key'] = channel.key;
  else headers.authorization = `Bearer ${channel.key}`;
  if (channel.organization) headers['openai-organization'] = channel.organization;
  return headers;
}
