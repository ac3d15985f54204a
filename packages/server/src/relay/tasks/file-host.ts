import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AppContext } from '../../context.js';
import { isPublicAddress } from '../../services/security/outbound.js';

/**
 * A task file's host (a drawing's image, a video) may be fetched when it is the channel's own host (operators point channels at private proxies on
 * purpose), when private addresses are allowed, or when every address it resolves to is public.
 */
export async function fileHostAllowed(
  ctx: AppContext,
  fileUrl: URL,
  channelBaseUrl: string | undefined,
): Promise<boolean> {
  if (fileUrl.protocol !== 'http:' && fileUrl.protocol !== 'https:') return false;
  if (channelBaseUrl) {
    try {
      if (new URL(channelBaseUrl).host === fileUrl.host) return true;
    } catch {
      // An unparsable base URL vouches for nothing.
    }
  }
  if (ctx.options.bool('fetch_setting.allow_private_ip')) return true;
  const host = fileUrl.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPublicAddress(host);
  const addresses = await lookup(host, { all: true }).catch(() => []);
  return addresses.length > 0 && addresses.every((entry) => isPublicAddress(entry.address));
}
