import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import ChatPage from './chat-page';
import Chat2LinkPage from './chat2link-page';

const chats = [{ One: 'https://one.example/?k={key}' }, { Two: 'https://two.example/#/?k={key}&u={address}' }];
const token = (id: number, status: number, key: string) => ({ id, status, key, name: `t${id}` });

describe('chat pages', () => {
  it('embeds the chosen chat link with the first enabled token', async () => {
    mockFetch({
      'GET /api/status': ok(statusFixture({ chats, server_address: 'https://gw.example.com' })),
      'GET /api/token/': ok({ items: [token(1, 2, 'off'), token(2, 1, 'live')], total: 2, page: 1, page_size: 100 }),
    });
    renderPage(<ChatPage />, { path: '/chat/:id?', url: '/chat/1' });
    const frame = (await screen.findByTestId('chat-frame')) as HTMLIFrameElement;
    expect(frame.src).toBe('https://two.example/#/?k=sk-live&u=https%3A%2F%2Fgw.example.com');
  });

  it('explains missing links and a missing enabled token', async () => {
    mockFetch({
      'GET /api/status': ok(statusFixture({ chats: [] })),
      'GET /api/token/': ok({ items: [], total: 0, page: 1, page_size: 100 }),
    });
    renderPage(<ChatPage />, { path: '/chat/:id?', url: '/chat' });
    expect(await screen.findByText('请联系管理员配置聊天链接')).toBeTruthy();
  });

  it('sends a visitor without an enabled token from /chat2link to /token', async () => {
    mockFetch({
      'GET /api/status': ok(statusFixture({ chats })),
      'GET /api/token/': ok({ items: [token(1, 2, 'off')], total: 1, page: 1, page_size: 100 }),
    });
    renderPage(<Chat2LinkPage />, { path: '/chat2link' });
    expect((await screen.findAllByText('没有可用的已启用令牌')).length).toBeGreaterThan(0);
    expect((await screen.findByTestId('location', {}, { timeout: 3000 })).textContent).toBe('/token');
  });
});
