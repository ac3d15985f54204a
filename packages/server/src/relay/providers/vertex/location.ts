import type { RuntimeChannel } from '../../types.js';
import { isServiceAccountKey, serviceAccountOf } from './account.js';

/** The region when the channel names none (also the family's fallback for a map without the model or `default`). */
const DEFAULT_REGION = 'global';

export type Publisher = 'google' | 'anthropic';

/**
 * The region a model is served from: the channel's `other` is the region, or a JSON map of model → region with a
 * `default` (family). The family looks the map up by the name the client asked for; the provider sees the name
 * the upstream gets (after the channel's model mapping), so a map is keyed by that name.
 */
export function vertexRegion(other: string, model: string): string {
  const text = other.trim();
  if (!text.startsWith('{')) return text || DEFAULT_REGION;
  try {
    const map = JSON.parse(text) as Record<string, unknown>;
    const region = Object.hasOwn(map, model) ? map[model] : map.default;
    return typeof region === 'string' && region ? region : DEFAULT_REGION;
  } catch {
    return DEFAULT_REGION;
  }
}

/** The channel's base URL (a proxy, a Private Service Connect endpoint), else the region's Vertex AI host. */
export function vertexHost(channel: RuntimeChannel, region: string): string {
  if (channel.baseUrl) return channel.baseUrl.replace(/\/+$/, '');
  return region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
}

/** A model id in a URL path: `@` stays readable (Claude's `claude-…@20241022`), anything else unsafe is escaped. */
const pathModel = (model: string) => encodeURIComponent(model).replaceAll('%40', '@');

/**
 * A publisher model's method URL, e.g. `…/v1/projects/{project}/locations/{region}/publishers/google/models/
 * gemini-2.5-flash:generateContent`. The project is the service account's; an API key (Vertex express mode) has
 * no project, and its URLs name the publisher model alone.
 */
export function publisherUrl(
  channel: RuntimeChannel,
  publisher: Publisher,
  model: string,
  method: string,
  /** The name a region map is keyed by, when the URL's model id differs (Claude's Vertex ids). */
  regionModel = model,
): string {
  const region = vertexRegion(channel.other, regionModel);
  const host = vertexHost(channel, region);
  const tail = `publishers/${publisher}/models/${pathModel(model)}:${method}`;
  if (!isServiceAccountKey(channel.key)) return `${host}/v1/${tail}`;
  const account = serviceAccountOf(channel.key);
  // An unreadable key is refused in `open` before anything is sent; the URL only needs to be well-formed.
  const project = 'projectId' in account ? account.projectId : '-';
  return `${host}/v1/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(region)}/${tail}`;
}

/** What every Vertex call carries before authentication: an API key travels in Google's key header. */
export function vertexHeaders(channel: RuntimeChannel): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!isServiceAccountKey(channel.key)) headers['x-goog-api-key'] = channel.key;
  return headers;
}
