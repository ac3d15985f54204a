import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { fail, type MockHandler, mockFetch, ok, type RecordedRequest } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { newChannelValues } from '../channel-form-values';
import { ChannelForm } from '../components/channel-form';
import type { Channel } from '../types';
import ChannelEditPage from './channel-edit-page';

/** Buttons by their visible text: role queries walk antd's whole tree and are slow in jsdom. */
function button(text: string, scope: HTMLElement = document.body): HTMLElement {
  return within(scope).getByText(text, { selector: 'button span, button' }).closest('button')!;
}

function api(handlers: Record<string, MockHandler> = {}) {
  return mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/group/': ok(['default', 'vip']),
    'POST /api/channel/': ok([11]),
    ...handlers,
  });
}

const posted = (requests: RecordedRequest[]) =>
  requests.find((request) => request.method === 'POST' && request.path === '/api/channel/');

const stored: Channel = {
  id: 5,
  name: 'OpenAI main',
  type: 1,
  key: '',
  openai_organization: null,
  test_model: null,
  status: 1,
  weight: 3,
  created_time: 1_700_000_000,
  test_time: 0,
  response_time: 0,
  base_url: 'https://api.example.com',
  other: '',
  balance: 0,
  balance_updated_time: 0,
  models: 'gpt-4o,gpt-4o-mini',
  group: 'default,vip',
  used_quota: 0,
  model_mapping: null,
  status_code_mapping: null,
  priority: 2,
  auto_ban: 1,
  other_info: null,
  tag: 'main',
  setting: null,
  param_override: null,
  header_override: null,
  remark: null,
  max_input_tokens: 0,
};

describe('channel form', () => {
  it('names the missing fields, then warns about a /v1 base URL before creating', async () => {
    const user = setupUser();
    const { requests } = api();
    renderPage(<ChannelEditPage />, { path: '/channel/add' });
    const form = await screen.findByTestId('channel-form');

    await user.click(button('创建渠道', form));
    expect((await screen.findAllByText('请填写渠道名称和渠道密钥！')).length).toBeGreaterThan(0);

    await fill(user, within(form).getByLabelText('名称'), 'main');
    await fill(user, within(form).getByLabelText('密钥'), 'sk-one');
    await user.click(button('创建渠道', form));
    expect((await screen.findAllByText('请至少选择一个模型！')).length).toBeGreaterThan(0);

    await fill(user, within(form).getByLabelText('自定义模型名称'), 'gpt-4o');
    await user.click(button('添加', form));
    await fill(user, within(form).getByLabelText('API 地址'), 'https://proxy.example.com/v1/');
    await user.click(button('创建渠道', form));
    expect((await screen.findAllByText('API 地址以 /v1 结尾')).length).toBeGreaterThan(0);
    expect(posted(requests)).toBeUndefined();

    await user.click(button('仍然保存'));
    await waitFor(() => expect(posted(requests)).toBeDefined());
    expect(posted(requests)?.body).toMatchObject({
      mode: 'single',
      channel: {
        name: 'main',
        type: 1,
        key: 'sk-one',
        base_url: 'https://proxy.example.com/v1',
        models: 'gpt-4o',
        group: 'default',
        auto_ban: 1,
      },
    });
    expect((await screen.findByTestId('location')).textContent).toBe('/channel');
  });

  it('fills the preset models of Suno, warns on a duplicate custom model and checks JSON fields', async () => {
    const user = setupUser();
    const { requests } = api();
    renderPage(<ChannelForm initialValues={{ ...newChannelValues(), type: 36, name: 'suno', key: 'k' }} />, {
      path: '/channel/add',
    });
    const form = await screen.findByTestId('channel-form');

    await user.click(button('填入相关模型', form));
    expect(await within(form).findByText('已选择 2 个模型')).toBeTruthy();
    expect(within(form).getAllByText('suno_music').length).toBeGreaterThan(0);

    await fill(user, within(form).getByLabelText('自定义模型名称'), 'suno_lyrics');
    await user.click(button('添加', form));
    expect(await screen.findByText('模型 suno_lyrics 已存在')).toBeTruthy();

    await fill(user, within(form).getByLabelText('模型映射'), '{"a": ');
    await user.click(button('创建渠道', form));
    expect(await screen.findByText('模型映射必须是合法的 JSON 格式！')).toBeTruthy();
    expect(posted(requests)).toBeUndefined();
  });

  it('loads the channel for editing and sends an empty key when the key is left alone', async () => {
    const user = setupUser();
    const { requests } = api({
      'GET /api/channel/5': ok(stored),
      'PUT /api/channel/': ok(stored),
    });
    renderPage(<ChannelEditPage />, { path: '/channel/edit/:id', url: '/channel/edit/5' });
    const form = await screen.findByTestId('channel-form');
    expect((within(form).getByLabelText('名称') as HTMLInputElement).value).toBe('OpenAI main');
    expect(within(form).getByPlaceholderText('留空则保持原密钥不变')).toBeTruthy();

    await user.click(button('保存', form));
    await waitFor(() => expect(requests.some((request) => request.method === 'PUT')).toBe(true));
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.body).toMatchObject({
      id: 5,
      key: '',
      name: 'OpenAI main',
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default,vip',
      priority: 2,
      weight: 3,
      tag: 'main',
    });
  });

  it('shows root the way to the private-address setting when fetching models from a private upstream is refused', async () => {
    const user = setupUser();
    const refusal =
      '已拒绝访问 10.0.0.5：这是内网地址。如需让服务端访问内网上游（模型列表、余额），请 root 用户在「系统设置 → 通用设置」中开启「允许服务端请求访问内网地址」（fetch_setting.allow_private_ip）';
    for (const role of [10, 100]) {
      setStoredUser({ id: 1, username: 'someone', display_name: 'Someone', role, status: 1, group: 'default' });
      api({ 'GET /api/channel/5': ok(stored), 'GET /api/channel/fetch_models/5': fail(refusal) });
      const { unmount } = renderPage(<ChannelEditPage />, { path: '/channel/edit/:id', url: '/channel/edit/5' });
      const form = await screen.findByTestId('channel-form');
      await user.click(button('获取模型列表', form));
      if (role === 100) {
        const hint = await screen.findByTestId('private-address-hint');
        expect(within(hint).getByText('上游地址是内网地址')).toBeTruthy();
        // A link into a new tab: following it must not throw away the half-filled form.
        const open = within(hint).getByText('打开系统设置').closest('a');
        expect(open?.getAttribute('href')).toBe('/setting?tab=system');
        expect(open?.getAttribute('target')).toBe('_blank');
      } else {
        await waitFor(() => expect(screen.queryAllByText(refusal).length).toBeGreaterThan(0));
        expect(screen.queryByTestId('private-address-hint')).toBeNull();
      }
      unmount();
    }
  });
});
