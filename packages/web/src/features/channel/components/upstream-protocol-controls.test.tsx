import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import { newChannelValues } from '../channel-form-values';
import type { Channel } from '../types';
import { ChannelStatusTag } from './channel-cells';
import { ChannelForm } from './channel-form';

function api() {
  return mockFetch({ 'GET /api/status': ok(statusFixture()), 'GET /api/group/': ok(['default']) });
}

const settingText = (form: HTMLElement) => (within(form).getByLabelText(/额外设置/) as HTMLTextAreaElement).value;

describe('how a channel speaks to its upstream: Responses mode and prompt-cache breakpoints', () => {
  it('writes responses_mode into the setting JSON beside its other keys, and auto removes it', async () => {
    const user = setupUser();
    api();
    const setting = JSON.stringify({ log_bodies: true });
    renderPage(<ChannelForm initialValues={{ ...newChannelValues(), type: 1, name: 'vllm', key: 'k', setting }} />, {
      path: '/channel/add',
    });
    const form = await screen.findByTestId('channel-form');
    await user.click(within(form).getByText('高级设置'));
    const select = await within(form).findByTestId('channel-responses-mode');
    expect(within(select).getByText('自动')).toBeTruthy();

    await user.click(within(form).getByLabelText('Responses API'));
    await user.click(await screen.findByText('经由 Chat Completions', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(JSON.parse(settingText(form))).toEqual({ log_bodies: true, responses_mode: 'chat' }));
    expect(within(form).getByText('此渠道的 /v1/responses 总是转换为 Chat Completions。')).toBeTruthy();

    await user.click(within(form).getByLabelText('Responses API'));
    await user.click(await screen.findByText('自动', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(JSON.parse(settingText(form))).toEqual({ log_bodies: true }));
  }, 60_000);

  it('is not offered on a channel type that only chats', async () => {
    api();
    renderPage(<ChannelForm initialValues={{ ...newChannelValues(), type: 43, name: 'ds', key: 'k' }} />, {
      path: '/channel/add',
    });
    const form = await screen.findByTestId('channel-form');
    await setupUser().click(within(form).getByText('高级设置'));
    await within(form).findByTestId('channel-log-bodies');
    expect(within(form).queryByTestId('channel-responses-mode')).toBeNull();
    expect(within(form).queryByTestId('channel-claude-cache')).toBeNull();
  });

  it('offers automatic prompt-cache breakpoints on an Anthropic channel, written into the setting JSON', async () => {
    const user = setupUser();
    api();
    renderPage(<ChannelForm initialValues={{ ...newChannelValues(), type: 14, name: 'claude', key: 'k' }} />, {
      path: '/channel/add',
    });
    const form = await screen.findByTestId('channel-form');
    await user.click(within(form).getByText('高级设置'));
    const toggle = await within(form).findByTestId('channel-claude-cache');
    expect(within(form).queryByTestId('channel-responses-mode')).toBeNull();
    await user.click(toggle);
    await waitFor(() => expect(JSON.parse(settingText(form))).toEqual({ claude_cache_breakpoints: true }));
    await user.click(toggle);
    await waitFor(() => expect(settingText(form)).toBe(''));
  }, 60_000);

  it('marks a channel that reaches the Responses API through chat for now', async () => {
    api();
    const channel = { id: 1, status: 1, responses_via_chat_until: 1_900_000_000 } as Channel;
    renderPage(<ChannelStatusTag channel={channel} />, { path: '/' });
    expect(await screen.findByTestId('responses-via-chat')).toBeTruthy();
    expect(screen.getByText('Responses 经 Chat')).toBeTruthy();
  });
});
