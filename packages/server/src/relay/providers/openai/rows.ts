/**
 * The providers that speak the OpenAI wire format differ only in where the API lives and how the key is sent.
 * Each is one row here (design §6); the adapter reads the row, never the provider's name.
 */
export interface OpenAiCompatibleRow {
  /** Path between the base URL and `/chat/completions`, `/models`, … */
  prefix: string;
  /** How the key travels. */
  auth: 'bearer' | 'azure';
  /** Builds the whole URL for a route instead of base + prefix + route (Azure deployments, Cloudflare accounts). */
  url?: (base: string, route: string, model: string, other: string) => string;
}

const DEFAULT_ROW: OpenAiCompatibleRow = { prefix: '/v1', auth: 'bearer' };

const AZURE_DEFAULT_API_VERSION = '2025-04-01-preview';

export const OPENAI_COMPATIBLE_ROWS: Record<number, OpenAiCompatibleRow> = {
  3: {
    prefix: '',
    auth: 'azure',
    url: (base, route, model, other) =>
      route === '/models'
        ? `${base}/openai/models?api-version=${other || AZURE_DEFAULT_API_VERSION}`
        : `${base}/openai/deployments/${encodeURIComponent(model)}${route}?api-version=${other || AZURE_DEFAULT_API_VERSION}`,
  },
  // Custom: the base URL is the full request URL, with {model} filled in.
  8: {
    prefix: '',
    auth: 'bearer',
    url: (base, _route, model) => base.replaceAll('{model}', encodeURIComponent(model)),
  },
  17: { prefix: '/compatible-mode/v1', auth: 'bearer' },
  26: { prefix: '/api/paas/v4', auth: 'bearer' },
  27: { prefix: '', auth: 'bearer' },
  39: {
    prefix: '',
    auth: 'bearer',
    url: (base, route, _model, other) => `${base}/client/v4/accounts/${encodeURIComponent(other)}/ai/v1${route}`,
  },
  45: { prefix: '/api/v3', auth: 'bearer' },
  46: { prefix: '/v2', auth: 'bearer' },
};

export function openAiRow(type: number): OpenAiCompatibleRow {
  return OPENAI_COMPATIBLE_ROWS[type] ?? DEFAULT_ROW;
}
