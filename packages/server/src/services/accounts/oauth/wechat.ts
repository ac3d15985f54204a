import type { AppContext } from '../../../context.js';
import { ApiFailure } from '../../../http/envelope.js';
import { claim, jsonObject, type ProviderCall, providerFetch } from './provider-http.js';
import type { ProviderAccountInfo, ProviderIdentity } from './redirect-provider.js';

export const wechatAccount: ProviderAccountInfo = {
  label: 'WeChat',
  column: 'wechat_id',
  usernamePrefix: 'wechat',
  fallbackDisplayName: 'WeChat User',
  enabled: (ctx) => ctx.options.bool('WeChatAuthEnabled'),
};

/**
 * The family's "WeChat server": a separate service behind the operator's official account. The person scans the
 * QR code, the account replies with a verification code, and the server turns that code into the openid:
 * `GET {WeChatServerAddress}/api/wechat/user?code=` with `Authorization: {WeChatServerToken}` answers
 * `{success, message, data: openid}`. The address is typed by an admin, so it follows allow_private_ip.
 */
export async function wechatIdentity(ctx: AppContext, code: string): Promise<ProviderIdentity> {
  const call: ProviderCall = {
    provider: wechatAccount.label,
    allowPrivate: ctx.options.bool('fetch_setting.allow_private_ip'),
  };
  const address = ctx.options.get('WeChatServerAddress').replace(/\/+$/, '');
  if (!address) throw new ApiFailure('oauth_not_configured', { provider: call.provider });
  const response = await providerFetch(call, `${address}/api/wechat/user?code=${encodeURIComponent(code)}`, {
    headers: { accept: 'application/json', authorization: ctx.options.get('WeChatServerToken') },
  });
  const body = jsonObject(call, response);
  const openid = claim(body, 'data');
  if (response.status !== 200 || body.success !== true || !openid) {
    const reason = claim(body, 'message') || `HTTP ${response.status}`;
    throw new ApiFailure('oauth_provider_failed', { provider: call.provider, reason });
  }
  return { id: openid, legacyIds: [], displayName: '', email: '' };
}
