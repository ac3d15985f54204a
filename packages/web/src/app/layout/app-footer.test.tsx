import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, ok } from '../../test/fetch-mock';
import { renderPage } from '../../test/render';
import { statusFixture } from '../../test/status-fixture';
import { AppFooter, FOOTER_POLL_INTERVAL_MS } from './app-footer';

describe('footer', () => {
  it('shows a default footer with the system name when no HTML is stored', async () => {
    mockFetch({ 'GET /api/status': ok(statusFixture({ system_name: 'Acme AI' })) });
    renderPage(<AppFooter />);
    expect(await screen.findByText(/Acme AI © \d{4}/)).toBeTruthy();
  });

  it('re-reads the stored HTML shortly after mounting, and sanitises it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    mockFetch({ 'GET /api/status': new Promise<never>(() => {}) as never });
    renderPage(<AppFooter />);
    window.localStorage.setItem('footer_html', '<b>Custom footer</b><img src="x" onerror="alert(1)">');
    await act(async () => {
      vi.advanceTimersByTime(FOOTER_POLL_INTERVAL_MS);
    });
    const footer = screen.getByTestId('footer');
    expect(footer.querySelector('b')?.textContent).toBe('Custom footer');
    expect(footer.innerHTML).not.toContain('onerror');
  });
});
