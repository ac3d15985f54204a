import { defaultOptionValues, isSecretOptionKey } from '@gateway/shared';
import { configure, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { fail, type MockHandler, mockFetch, ok, type RecordedRequest } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { RatioJsonEditors } from '../components/ratio/ratio-json-editors';
import { VisualRatioEditor } from '../components/ratio/visual-ratio-editor';
import SettingPage from './setting-page';

function storedOptions(overrides: Record<string, string> = {}) {
  const values: Record<string, string> = { ...defaultOptionValues(), ...overrides };
  return Object.entries(values).map(([key, value]) => ({ key, value: isSecretOptionKey(key) ? '' : value }));
}

/** Inputs by the id antd gives a form item (its option key): label queries crawl the whole, large form. */
function field(id: string): HTMLElement {
  const element = document.getElementById(id);
  if (!element) throw new Error(`no field #${id}`);
  return element;
}

function button(text: string, scope: HTMLElement = document.body): HTMLButtonElement {
  return within(scope).getByText(text, { selector: 'button span, button' }).closest('button')!;
}

function renderSettings(tab: string, handlers: Record<string, MockHandler> = {}, overrides = {}) {
  // Like the server: a saved value is what the next GET returns.
  const stored: Record<string, string> = { ...overrides };
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/option/': () => ok(storedOptions(stored)),
    'PUT /api/option/': (request) => {
      const { key, value } = request.body as { key: string; value: string };
      stored[key] = value;
      return ok(undefined, '保存成功');
    },
    ...handlers,
  });
  renderPage(<SettingPage />, { path: '/setting', url: `/setting?tab=${tab}` });
  return api;
}

/** One part of the operation tab alone: the whole tab is too large a tree for quick jsdom runs. */
function renderPart(part: ReactNode) {
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/option/': ok(storedOptions()),
    'PUT /api/option/': ok(undefined, '保存成功'),
  });
  renderPage(part, { path: '/setting' });
  return api;
}

function optionMap(overrides: Record<string, string> = {}): Record<string, string> {
  return Object.fromEntries(storedOptions(overrides).map(({ key, value }) => [key, value]));
}

const puts = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.method === 'PUT').map((request) => request.body);

// Validation messages appear after antd's async validators: on a busy machine that takes over the 1 s default.
configure({ asyncUtilTimeout: 5_000 });

// antd forms are heavy in jsdom, and the test machines are shared: allow a slow run rather than a flaky one.
describe('settings page', { timeout: 60_000 }, () => {
  it('saves only the changed key of a section, and says so when nothing changed', async () => {
    const user = setupUser();
    const { requests } = renderSettings('ratelimit');
    const section = await screen.findByTestId('section-ratelimit');
    await user.click(button('保存', section));
    expect(await screen.findByText('你似乎并没有修改什么')).toBeTruthy();
    expect(puts(requests)).toEqual([]);

    const count = field('ModelRequestRateLimitCount');
    await user.clear(count);
    await fill(user, count, '30');
    await user.click(button('保存', section));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts(requests)).toEqual([{ key: 'ModelRequestRateLimitCount', value: '30' }]);
  });

  it('refuses a rate-limit group outside the spec bounds before sending anything', async () => {
    const user = setupUser();
    const { requests } = renderSettings('ratelimit');
    const section = await screen.findByTestId('section-ratelimit');
    const groups = field('ModelRequestRateLimitGroup');
    await user.clear(groups);
    await fill(user, groups, '{"vip": [10, 0]}');
    await user.click(button('保存', section));
    expect(await within(section).findByText('分组速率限制的 JSON 结构不正确')).toBeTruthy();
    expect(puts(requests)).toEqual([]);
  });

  it('refuses invalid JSON in the ratio editors with the spec message and sends nothing', async () => {
    const user = setupUser();
    const { requests } = renderPart(<RatioJsonEditors options={optionMap()} />);
    const editors = await screen.findByTestId('ratio-json');
    const ratio = field('ModelRatio');
    await user.clear(ratio);
    await fill(user, ratio, '{"gpt-4o": 1.25,');
    await user.click(button('保存模型倍率设置', editors));
    expect(await within(editors).findByText('模型倍率（ModelRatio）不是合法的 JSON 字符串')).toBeTruthy();
    expect(puts(requests)).toEqual([]);
  });

  it('reports a partial failure with the server reason, the client id saved before its switch', async () => {
    const user = setupUser();
    const { requests } = renderSettings('system', {
      'PUT /api/option/': (request) =>
        (request.body as { key: string }).key === 'GitHubOAuthEnabled'
          ? fail('开启 GitHubOAuthEnabled 之前请先填写 GitHubClientId')
          : ok(undefined, '保存成功'),
    });
    const section = await screen.findByTestId('section-github');
    await fill(user, field('GitHubClientId'), 'gh-client');
    await user.click(field('GitHubOAuthEnabled'));
    await user.click(button('保存', section));
    expect(await screen.findByText('部分保存失败，请重试')).toBeTruthy();
    expect(await screen.findByText('开启 GitHubOAuthEnabled 之前请先填写 GitHubClientId')).toBeTruthy();
    expect(puts(requests)).toEqual([
      { key: 'GitHubClientId', value: 'gh-client' },
      { key: 'GitHubOAuthEnabled', value: 'true' },
    ]);
  });

  it('asks before turning off password sign-in; cancelling leaves the switch on', async () => {
    const user = setupUser();
    const { requests } = renderSettings('system');
    const section = await screen.findByTestId('section-login');
    const passwordLogin = field('PasswordLoginEnabled');
    expect(passwordLogin.getAttribute('aria-checked')).toBe('true');
    await user.click(passwordLogin);
    const title = (await screen.findAllByText('确定关闭密码登录？'))[0]!;
    await user.click(button('取消', title.closest('.ant-modal') as HTMLElement));
    await waitFor(() => expect(passwordLogin.getAttribute('aria-checked')).toBe('true'));
    await user.click(button('保存', section));
    expect(await screen.findByText('你似乎并没有修改什么')).toBeTruthy();
    expect(puts(requests)).toEqual([]);
  });

  it('keeps a secret typed in one section when another section saves, and never shows a stored one', async () => {
    const user = setupUser();
    const { requests } = renderSettings('system');
    await screen.findByTestId('section-github');
    const secret = field('GitHubClientSecret') as HTMLInputElement;
    expect(secret.value).toBe('');
    expect(screen.getAllByText('出于安全考虑不会回显；留空则保持不变').length).toBeGreaterThan(0);
    await fill(user, secret, 'typed-secret');
    await fill(user, field('ServerAddress'), 'https://gw.example.com/');
    await user.click(button('保存', await screen.findByTestId('section-general')));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts(requests)).toEqual([{ key: 'ServerAddress', value: 'https://gw.example.com' }]);
    await waitFor(() =>
      expect(requests.filter((r) => r.path === '/api/option/' && r.method === 'GET')).toHaveLength(2),
    );
    expect((field('GitHubClientSecret') as HTMLInputElement).value).toBe('typed-secret');
  });

  it('wants the server address before payment settings are saved', async () => {
    const user = setupUser();
    const { requests } = renderSettings('system');
    const section = await screen.findByTestId('section-payment');
    await fill(user, field('EpayId'), '1001');
    await user.click(button('保存', section));
    expect(await screen.findByText('请先填写服务器地址')).toBeTruthy();
    expect(puts(requests)).toEqual([]);
  });

  it('edits the top-up quick picks and amount discounts, refusing malformed ones before sending', async () => {
    const user = setupUser();
    const { requests } = renderSettings('system', {}, { ServerAddress: 'https://gw.example.com' });
    const section = await screen.findByTestId('section-payment');
    const picks = field('payment_setting.amount_options');
    const discount = field('payment_setting.amount_discount');
    await user.clear(picks);
    await fill(user, picks, '[0, 10.5]');
    await user.clear(discount);
    await fill(user, discount, '{"100": 1.5}');
    await user.click(button('保存', section));
    expect(
      await within(section).findByText('充值快捷金额必须是由正整数组成的 JSON 数组，例如 [10, 20, 50]'),
    ).toBeTruthy();
    expect(await within(section).findByText(/^充值金额折扣必须是“充值数量 → 折扣系数”的 JSON 对象/)).toBeTruthy();
    expect(puts(requests)).toEqual([]);

    await user.clear(picks);
    await fill(user, picks, '[5, 30, 100]');
    await user.clear(discount);
    await fill(user, discount, '{"100": 0.9}');
    await user.click(button('保存', section));
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(puts(requests)).toEqual([
      { key: 'payment_setting.amount_options', value: '[5, 30, 100]' },
      { key: 'payment_setting.amount_discount', value: '{"100": 0.9}' },
    ]);
  });

  it('prices a model per request in the visual editor, which clears its ratios', async () => {
    const user = setupUser();
    const options = optionMap({
      ModelPrice: '{"dall-e-3": 0.04}',
      ModelRatio: '{"gpt-4o": 1.25, "gpt-4o-mini": 0.075}',
      CompletionRatio: '{"gpt-4o": 4}',
    });
    const { requests } = renderPart(<VisualRatioEditor options={options} />);
    const visual = await screen.findByTestId('ratio-visual');
    expect(within(visual).getByText('$2.5 / $10')).toBeTruthy();
    await user.click(visual.querySelector<HTMLElement>('[aria-label="编辑 gpt-4o"]')!);
    const form = await screen.findByTestId('pricing-row-form');
    await user.click(within(form).getByText('按次计费'));
    await waitFor(() => field('price'));
    await fill(user, field('price'), '0.5');
    await user.click(button('保存', form.closest('.ant-modal') as HTMLElement));
    await waitFor(() => expect(puts(requests)).toHaveLength(3));
    const sent = Object.fromEntries(
      puts(requests).map((body) => {
        const { key, value } = body as { key: string; value: string };
        return [key, JSON.parse(value)];
      }),
    );
    expect(sent).toEqual({
      ModelPrice: { 'dall-e-3': 0.04, 'gpt-4o': 0.5 },
      ModelRatio: { 'gpt-4o-mini': 0.075 },
      CompletionRatio: {},
    });
  });
});
