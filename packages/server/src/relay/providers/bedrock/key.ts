import type { RuntimeChannel } from '../../types.js';

/**
 * A Bedrock channel's key, in the family's two forms: `AccessKeyId|SecretAccessKey|Region` (IAM credentials, each
 * call signed with SigV4) or `APIKey|Region` (a Bedrock API key, sent as a bearer token). Null for any other form.
 */
export type BedrockKey =
  | { kind: 'sigv4'; accessKeyId: string; secretAccessKey: string; region: string }
  | { kind: 'api-key'; apiKey: string; region: string };

export function bedrockKey(key: string): BedrockKey | null {
  const parts = key.split('|').map((part) => part.trim());
  if (parts.some((part) => part === '')) return null;
  if (parts.length === 3)
    return { kind: 'sigv4', accessKeyId: parts[0]!, secretAccessKey: parts[1]!, region: parts[2]! };
  if (parts.length === 2) return { kind: 'api-key', apiKey: parts[0]!, region: parts[1]! };
  return null;
}

/** The region is the key's last part, whatever its form (read leniently to build a URL; `open` checks the key). */
export const keyRegion = (key: string) => key.split('|').at(-1)!.trim() || 'us-east-1';

/** The channel's base URL (a VPC endpoint, a proxy) or the region's runtime endpoint. */
export function runtimeBase(channel: RuntimeChannel): string {
  return (channel.baseUrl || `https://bedrock-runtime.${keyRegion(channel.key)}.amazonaws.com`).replace(/\/+$/, '');
}

/** `/model/{modelId}/{action}`: the id is one path segment, so its `:` and `/` (ARNs) are percent-encoded. */
export function modelUrl(channel: RuntimeChannel, modelId: string, action: string): string {
  return `${runtimeBase(channel)}/model/${encodeURIComponent(modelId)}/${action}`;
}
