import {
  openRouterToRatioConfig,
  PRICE_SYNC_FIELDS,
  PRICE_SYNC_OPTION,
  type PriceSyncSource,
  parseRatioConfig,
  pricingListToRatioConfig,
  type RatioConfig,
} from '@gateway/shared';
import type { OptionsStore } from '../../cache/options-store.js';
import { ApiFailure } from '../../http/envelope.js';
import { OutboundError, outboundFetch } from '../security/outbound.js';

const FETCH_TIMEOUT_MS = 15_000;
// OpenRouter's whole list is a few MB; a gateway's ratio config is smaller.
const MAX_SOURCE_BYTES = 10 * 1024 * 1024;

/** This site's four price maps, as the ratio_config shape. */
export function localRatioConfig(options: OptionsStore): RatioConfig {
  const config: RatioConfig = {};
  for (const field of PRICE_SYNC_FIELDS) {
    config[field] = { ...(options.json<Record<string, number>>(PRICE_SYNC_OPTION[field]) ?? {}) };
  }
  return config;
}

const trimBase = (url: string) => url.trim().replace(/\/+$/, '');

/**
 * A GET through the SSRF-safe client, its body parsed as JSON. Failures become the admin's message: a private
 * address names the setting that allows it, anything else carries the reason.
 */
async function getJson(url: string, label: string, options: OptionsStore): Promise<{ status: number; body: unknown }> {
  try {
    const response = await outboundFetch(
      url,
      { headers: { accept: 'application/json' } },
      {
        allowPrivate: options.bool('fetch_setting.allow_private_ip'),
        timeoutMs: FETCH_TIMEOUT_MS,
        maxBytes: MAX_SOURCE_BYTES,
      },
    );
    let body: unknown = null;
    try {
      body = response.json();
    } catch {
      throw new ApiFailure('ratio_sync_source_unrecognized', { source: label });
    }
    return { status: response.status, body };
  } catch (error) {
    if (error instanceof ApiFailure) throw error;
    if (error instanceof OutboundError && error.reason === 'blocked') {
      throw new ApiFailure('channel_fetch_private_refused', { host: error.host ?? label });
    }
    throw new ApiFailure('ratio_sync_source_failed', {
      source: label,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

async function fromOpenRouter(options: OptionsStore): Promise<RatioConfig> {
  const base = trimBase(options.get('ratio_sync.openrouter_base_url') || 'https://openrouter.ai');
  const { status, body } = await getJson(`${base}/api/v1/models`, base, options);
  if (status !== 200) throw new ApiFailure('ratio_sync_source_failed', { source: base, reason: `HTTP ${status}` });
  const config = openRouterToRatioConfig(body);
  if (!config) throw new ApiFailure('ratio_sync_source_unrecognized', { source: base });
  return config;
}

/**
 * Another gateway of the family: its exported ratios when it publishes them, else its public price list (which
 * every such gateway serves, though only for models it has channels for).
 */
export async function fromGateway(baseUrl: string, options: OptionsStore): Promise<RatioConfig> {
  const base = trimBase(baseUrl);
  const exported = await getJson(`${base}/api/ratio_config`, base, options);
  const envelope = exported.body as { success?: unknown; data?: unknown } | null;
  if (exported.status === 200 && envelope?.success === true) {
    const config = parseRatioConfig(envelope.data);
    if (config) return config;
  }
  const pricing = await getJson(`${base}/api/pricing`, base, options);
  const list = pricing.body as { success?: unknown; data?: unknown } | null;
  if (pricing.status !== 200) {
    throw new ApiFailure('ratio_sync_source_failed', { source: base, reason: `HTTP ${pricing.status}` });
  }
  const config = list?.success === true ? pricingListToRatioConfig(list.data) : null;
  if (!config) throw new ApiFailure('ratio_sync_source_unrecognized', { source: base });
  return config;
}

/** Reads a source into the ratio_config shape, with the label the preview shows for it. */
export async function readPriceSource(
  source: PriceSyncSource,
  options: OptionsStore,
): Promise<{ label: string; config: RatioConfig }> {
  switch (source.type) {
    case 'openrouter':
      return { label: 'OpenRouter', config: await fromOpenRouter(options) };
    case 'gateway':
      return { label: trimBase(source.base_url), config: await fromGateway(source.base_url, options) };
    case 'upload': {
      // An exported file may still be wrapped in the envelope it was downloaded in.
      const raw = source.data as { success?: unknown; data?: unknown } | null;
      const config = parseRatioConfig(raw) ?? parseRatioConfig(raw?.data);
      if (!config) throw new ApiFailure('ratio_sync_upload_invalid');
      return { label: 'upload', config };
    }
  }
}
