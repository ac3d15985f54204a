import { channelType } from '@gateway/shared';
import { OutboundError, outboundFetch } from '../../services/security/outbound.js';
import { providerFor } from '../providers/registry.js';
import type { RuntimeChannel } from '../types.js';

/** Lists the models an upstream offers (the channel form's "fetch models"), through the SSRF-safe client. */
export async function fetchUpstreamModels(channel: RuntimeChannel, allowPrivate: boolean): Promise<string[]> {
  const row = channelType(channel.type);
  const base = channel.baseUrl || row?.defaultBaseUrl || '';
  // Ollama's own model list lives outside its OpenAI-compatible API.
  if (row?.adaptor === 'ollama') {
    const response = await outboundFetch(`${base}/api/tags`, {}, { allowPrivate });
    if (response.status !== 200) throw new OutboundError(`HTTP ${response.status}`, 'status', response.status);
    return (response.json<{ models?: Array<{ name?: string }> }>().models ?? [])
      .map((m) => m.name ?? '')
      .filter(Boolean);
  }
  const provider = providerFor(channel.type);
  if (!provider?.models) throw new OutboundError('this channel type cannot list models', 'status');
  const call = provider.models.call({ ...channel, baseUrl: base });
  const response = await outboundFetch(call.url, { method: call.method, headers: call.headers }, { allowPrivate });
  if (response.status !== 200) {
    const error = provider.error(response.status, response.text);
    throw new OutboundError(`HTTP ${response.status}: ${error.message}`, 'status', response.status);
  }
  return [...new Set(provider.models.read(response.json()))].sort();
}
