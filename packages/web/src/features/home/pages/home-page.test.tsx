import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import HomePage from './home-page';

function renderHome(content: string, notice = '', status = statusFixture()) {
  mockFetch({
    'GET /api/status': ok(status),
    'GET /api/home_page_content': ok(content),
    'GET /api/notice': ok(notice),
  });
  return renderPage(<HomePage />);
}

describe('home page', () => {
  it('shows the built-in landing page when the admin wrote nothing', async () => {
    renderHome('', '', statusFixture({ system_name: 'Acme AI', docs_link: 'https://docs.example.com' }));
    expect(await screen.findByTestId('default-landing')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Acme AI' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /进入控制台/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: /使用文档/ }).getAttribute('href')).toBe('https://docs.example.com');
    expect(screen.getByTestId('base-url').textContent).toContain('http://localhost:3000/v1');
  });

  it('renders admin markdown, sanitised', async () => {
    renderHome('# Welcome\n\n<script>window.hacked = true</script><img src=x onerror="window.hacked=true">');
    const content = await screen.findByTestId('home-content');
    expect(content.querySelector('h1')?.textContent).toBe('Welcome');
    expect(content.innerHTML).not.toContain('script');
    expect(content.innerHTML).not.toContain('onerror');
  });

  it('embeds an https address as a full-size page', async () => {
    renderHome('https://example.com/landing');
    const frame = await screen.findByTitle('首页');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe('https://example.com/landing');
  });

  it('shows the notice until it is dismissed for good', async () => {
    const user = setupUser();
    const view = renderHome('', '**Maintenance** tonight');
    expect(await screen.findByText('Maintenance')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: '不再显示此公告' }));
    expect(window.localStorage.getItem('notice_dismissed')).toBeTruthy();
    view.unmount();

    renderHome('', '**Maintenance** tonight');
    await screen.findByTestId('default-landing');
    expect(screen.queryByText('系统公告')).toBeNull();
  });
});
