import { pricingEntry } from '@gateway/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearStoredUser, setStoredUser } from '../../../lib/session';
import { mockFetch } from '../../../test/fetch-mock';
import { renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import PricingPage from './pricing-page';

const answer = {
  success: true,
  message: '',
  data: [
    pricingEntry('gpt-4o-mini', ['default', 'vip'], {
      kind: 'tokens',
      modelRatio: 0.075,
      completionRatio: 4,
      cacheRatio: 1,
    }),
    pricingEntry('claude-3-5-sonnet', ['vip'], { kind: 'tokens', modelRatio: 1.5, completionRatio: 5, cacheRatio: 1 }),
    pricingEntry('mj_imagine', ['default'], { kind: 'call', price: 0.1 }),
  ],
  group_ratio: { default: 1, vip: 2 },
  usable_group: { default: '默认分组', vip: 'VIP' },
};

function renderPricing(status = statusFixture()) {
  const mock = mockFetch({
    'GET /api/status': { success: true, message: '', data: status },
    'GET /api/pricing': new Response(JSON.stringify(answer), { headers: { 'Content-Type': 'application/json' } }),
    'GET /api/pricing/health': {
      success: true,
      message: '',
      data: {
        window_seconds: 3600,
        models: {
          'gpt-4o-mini': { requests: 40, success_rate: 0.975, ttft_p50_ms: 420, tokens_per_second: 61.4 },
        },
      },
    },
  });
  renderPage(<PricingPage />, { path: '/pricing' });
  return mock;
}

const priceOf = async (model: string) => (await screen.findByTestId(`price-${model}`)).textContent;

describe('pricing page', () => {
  afterEach(() => clearStoredUser());

  it('warns a visitor that prices use the default group, and shows hand-checked prices', async () => {
    renderPricing();
    expect(await screen.findByTestId('pricing-guest-warning')).toBeTruthy();
    // 0.075 × 2 = $0.15 in, × 4 = $0.6 out per 1M tokens; mj $0.1 per call at group ratio 1
    expect(await priceOf('gpt-4o-mini')).toBe('输入$0.15 / 1M tokens输出$0.6 / 1M tokens');
    expect(await priceOf('mj_imagine')).toBe('每次调用$0.1 / 次');
    expect(screen.getByTestId('pricing-formula').textContent).toContain('/ 500000 美元');
    // The last hour on this gateway: a called model's figures, and "no calls" for the others.
    const row = (await screen.findByTestId('price-gpt-4o-mini')).closest('tr')!;
    expect((await within(row).findByTestId('model-health')).textContent).toBe('成功率 97.5%首字 0.42 秒61 tok/s');
    const quiet = screen.getByTestId('price-mj_imagine').closest('tr')!;
    expect(within(quiet).getByTestId('model-health-idle').textContent).toBe('近一小时无调用');
  });

  it("shows a user's group banner and switches the viewed group from a group tag", async () => {
    setStoredUser({ id: 7, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' });
    renderPricing();
    expect((await screen.findByTestId('pricing-group-banner')).textContent).toContain('你的默认分组为 default');
    const user = setupUser();
    const row = (await screen.findByText('gpt-4o-mini')).closest('tr')!;
    await user.click(within(row).getByText('vip'));
    // vip ratio 2: $0.3 in, $1.2 out
    expect(await priceOf('gpt-4o-mini')).toBe('输入$0.3 / 1M tokens输出$1.2 / 1M tokens');
    expect(await screen.findByText('当前查看的分组为：vip，倍率为：2')).toBeTruthy();
  });

  it('shows quota instead of dollars when currency display is off', async () => {
    renderPricing(statusFixture({ display_in_currency: false }));
    // 0.075 quota per token → 75k per 1M tokens; $0.1 × 500000 = 50k per call
    expect(await priceOf('gpt-4o-mini')).toBe('输入75k 额度 / 1M tokens输出300k 额度 / 1M tokens');
    expect(await priceOf('mj_imagine')).toBe('每次调用50k 额度 / 次');
  });

  it('searches only once an input method has finished composing', async () => {
    renderPricing();
    await screen.findByText('gpt-4o-mini');
    const search = screen.getByLabelText('模糊搜索模型名称');
    fireEvent.compositionStart(search);
    fireEvent.change(search, { target: { value: 'cl' } });
    expect(screen.queryByText('gpt-4o-mini')).toBeTruthy();
    fireEvent.compositionEnd(search, { target: { value: 'cl' } });
    expect(await screen.findByText('claude-3-5-sonnet')).toBeTruthy();
    expect(screen.queryByText('gpt-4o-mini')).toBeNull();
    fireEvent.change(search, { target: { value: 'zzz' } });
    expect(await screen.findByText('没有与“zzz”匹配的模型')).toBeTruthy();
  });
});
