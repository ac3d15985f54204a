import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../lib/session';
import { mockFetch, ok } from '../test/fetch-mock';
import { LocationProbe, renderRoutes } from '../test/render';
import { statusFixture } from '../test/status-fixture';
import { buildRoutes } from './router';
import { PAGE_ROUTES, type PageRoute } from './routes';

const page = (name: string) => async () => ({
  default: () => (
    <div>
      <span>{name}</span>
      <LocationProbe />
    </div>
  ),
});

// A small table with stand-in pages, so these tests are about the guards and not about real pages.
const table: PageRoute[] = [
  { path: '/', access: 'public', page: page('home page') },
  { path: '/setup', access: 'public', page: page('setup page') },
  { path: '/login', access: 'guest', page: page('login page') },
  { path: '/token', access: 'user', page: page('token page') },
  { path: '/channel', access: 'admin', page: page('channel page') },
  { path: '/log', access: 'user' },
];

const member = { id: 2, username: 'bob', display_name: 'Bob', role: 1, status: 1, group: 'default' };

function renderAt(path: string, status = statusFixture()) {
  mockFetch({
    'GET /api/status': ok(status),
    'GET /api/user/self': ok({ ...member, quota: 0, used_quota: 0, request_count: 0 }),
    'GET /api/notice': ok(''),
    'GET /api/home_page_content': ok(''),
  });
  return renderRoutes(buildRoutes(table), path);
}

describe('router and guards', () => {
  it('sends every path to /setup while setup is not done', async () => {
    renderAt('/login', statusFixture({ setup: false }));
    expect(await screen.findByText('setup page')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/setup');
  });

  it('leaves /setup alone while setup is not done', async () => {
    renderAt('/setup', statusFixture({ setup: false }));
    expect(await screen.findByText('setup page')).toBeTruthy();
  });

  it('sends a visitor without a stored user from a user page to /login', async () => {
    renderAt('/token');
    expect(await screen.findByText('login page')).toBeTruthy();
    // A redirect, not the form in place: the address says where the visitor is.
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('sends a signed-in user who opens /login to the console instead of a sign-in form', async () => {
    setStoredUser(member);
    renderAt('/login');
    expect(await screen.findByText('token page')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/token');
  });

  it('lets a signed-in user in, but not into admin pages', async () => {
    setStoredUser(member);
    renderAt('/token');
    expect(await screen.findByText('token page')).toBeTruthy();
  });

  it('refuses admin pages to an ordinary user', async () => {
    setStoredUser(member);
    renderAt('/channel');
    expect(await screen.findByText('你没有权限访问此页面')).toBeTruthy();
    expect(screen.queryByText('channel page')).toBeNull();
  });

  it('opens admin pages for admins', async () => {
    setStoredUser({ ...member, role: 10 });
    renderAt('/channel');
    expect(await screen.findByText('channel page')).toBeTruthy();
  });

  it('shows the not-found page for unknown paths and for routes not built yet', async () => {
    renderAt('/nowhere');
    expect(await screen.findByText('页面不存在，请检查你的浏览器地址是否正确')).toBeTruthy();
  });

  it('treats a listed route without a page as not found', async () => {
    setStoredUser(member);
    renderAt('/log');
    expect(await screen.findByTestId('not-found')).toBeTruthy();
  });

  it('explains when the server cannot be reached and nothing is stored', async () => {
    mockFetch({ 'GET /api/status': new Response('', { status: 502 }) });
    renderRoutes(buildRoutes(table), '/');
    expect(await screen.findByText('无法连接到服务器')).toBeTruthy();
    expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
  });

  it('stores the status and its derived keys, and sets the title', async () => {
    renderAt('/', statusFixture({ system_name: 'Acme AI', enable_drawing: true, footer_html: '<i>f</i>' }));
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem('status') ?? '{}').system_name).toBe('Acme AI');
    expect(window.localStorage.getItem('enable_drawing')).toBe('true');
    expect(window.localStorage.getItem('enable_task')).toBe('false');
    expect(window.localStorage.getItem('footer_html')).toBe('<i>f</i>');
    expect(window.localStorage.getItem('default_collapse_sidebar')).toBe('false');
    expect(document.title).toBe('Acme AI');
  });
});

describe('route table', () => {
  it('lists every route of the spec once', () => {
    const paths = PAGE_ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of ['/', '/setup', '/login', '/register', '/token', '/channel', '/setting', '/about', '/pricing']) {
      expect(paths).toContain(path);
    }
  });

  it('registers the pages that exist', () => {
    const built = PAGE_ROUTES.filter((route) => route.page).map((route) => route.path);
    expect(built).toEqual(
      expect.arrayContaining(['/', '/setup', '/login', '/about', '/token', '/channel', '/chat2link']),
    );
  });
});
