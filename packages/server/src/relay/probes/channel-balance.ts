import { type BalanceKind, channelType } from '@gateway/shared';
import { OutboundError, outboundFetch } from '../../services/security/outbound.js';
import type { RuntimeChannel } from '../types.js';

type Fetcher = (url: string, headers: Record<string, string>) => Promise<unknown>;

function dateText(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

const num = (value: unknown): number => {
  const parsed = typeof value === 'string' ? Number.parseFloat(value) : Number(value);
  if (!Number.isFinite(parsed)) throw new OutboundError('the upstream answered without a balance', 'status');
  return parsed;
};

/** How each provider that exposes a balance reports it, in its own currency unit (USD for most, CNY for some). */
const READERS: Record<BalanceKind, (base: string, key: string, get: Fetcher) => Promise<number>> = {
  async openai(base, key, get) {
    const auth = { authorization: `Bearer ${key}` };
    const subscription = (await get(`${base}/v1/dashboard/billing/subscription`, auth)) as { hard_limit_usd?: number };
    const usage = (await get(
      `${base}/v1/dashboard/billing/usage?start_date=${dateText(-100)}&end_date=${dateText(1)}`,
      auth,
    )) as {
      total_usage?: number;
    };
    // total_usage is in cents.
    return num(subscription.hard_limit_usd) - num(usage.total_usage ?? 0) / 100;
  },
  async deepseek(base, key, get) {
    const body = (await get(`${base}/user/balance`, { authorization: `Bearer ${key}` })) as {
      balance_infos?: Array<{ currency?: string; total_balance?: string }>;
    };
    const infos = body.balance_infos ?? [];
    // The family reads the CNY account (DeepSeek bills in CNY by default).
    const info = infos.find((entry) => entry.currency === 'CNY') ?? infos[0];
    return num(info?.total_balance);
  },
  async openrouter(base, key, get) {
    const body = (await get(`${base}/v1/credits`, { authorization: `Bearer ${key}` })) as {
      data?: { total_credits?: number; total_usage?: number };
    };
    return num(body.data?.total_credits) - num(body.data?.total_usage ?? 0);
  },
  async siliconflow(base, key, get) {
    const body = (await get(`${base}/v1/user/info`, { authorization: `Bearer ${key}` })) as {
      data?: { totalBalance?: string; balance?: string };
    };
    return num(body.data?.totalBalance ?? body.data?.balance);
  },
  async moonshot(base, key, get) {
    const body = (await get(`${base}/v1/users/me/balance`, { authorization: `Bearer ${key}` })) as {
      data?: { available_balance?: number };
    };
    return num(body.data?.available_balance);
  },
  async aiproxy(base, key, get) {
    const body = (await get(`${base}/api/report/getUserOverview`, { authorization: key })) as {
      data?: { totalPoints?: number };
    };
    return num(body.data?.totalPoints);
  },
  async api2gpt(base, key, get) {
    const body = (await get(`${base}/dashboard/billing/credit_grants`, { authorization: `Bearer ${key}` })) as {
      total_available?: number;
    };
    return num(body.total_available);
  },
  async aigc2d(base, key, get) {
    const body = (await get(`${base}/dashboard/billing/credit_grants`, { authorization: `Bearer ${key}` })) as {
      total_available?: number;
    };
    return num(body.total_available);
  },
};

export class BalanceUnsupportedError extends Error {}

/** Asks the upstream for the channel's balance through the SSRF-safe client. */
export async function fetchChannelBalance(channel: RuntimeChannel, allowPrivate: boolean): Promise<number> {
  const info = channelType(channel.type);
  if (!info?.balance) throw new BalanceUnsupportedError(String(channel.type));
  const base = channel.baseUrl || info.defaultBaseUrl;
  const get: Fetcher = async (url, headers) => {
    const response = await outboundFetch(url, { headers }, { allowPrivate, timeoutMs: 15_000 });
    if (response.status !== 200)
      throw new OutboundError(`HTTP ${response.status}: ${response.text.slice(0, 200)}`, 'status', response.status);
    return response.json();
  };
  return READERS[info.balance](base, channel.key, get);
}
