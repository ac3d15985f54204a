import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../test/fetch-mock';
import { renderPage } from '../../../test/render';
import AboutPage from './about-page';

function renderAbout(content: string) {
  mockFetch({ 'GET /api/status': ok({}), 'GET /api/about': ok(content) });
  renderPage(<AboutPage />, { path: '/about' });
}

describe('about page', () => {
  it('says the admin has not set the about content yet', async () => {
    renderAbout('');
    expect(await screen.findByText(/管理员暂未设置关于页面的内容/)).toBeTruthy();
  });

  it('renders the about markdown', async () => {
    renderAbout('Run by **Acme**');
    const content = await screen.findByTestId('about-content');
    expect(content.querySelector('strong')?.textContent).toBe('Acme');
  });

  it('embeds an https address', async () => {
    renderAbout('https://example.com/about');
    expect((await screen.findByTitle('关于')).getAttribute('src')).toBe('https://example.com/about');
  });
});
