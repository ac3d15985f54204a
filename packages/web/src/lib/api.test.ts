import { QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { fail, httpStatus, mockFetch, ok } from '../test/fetch-mock';
import { ApiError, api, requestEnvelope, setUnauthorizedHandler } from './api';
import i18n from './i18n';
import { notify } from './notify';
import { createQueryClient } from './query-client';
import { getStoredUser, setStoredUser } from './session';

const user = { id: 42, username: 'alice', display_name: 'Alice', role: 1, status: 1, group: 'default' };

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('api client', () => {
  it('unwraps the envelope and returns data', async () => {
    mockFetch({ 'GET /api/notice': ok('hello') });
    await expect(api.get<string>('/api/notice')).resolves.toBe('hello');
  });

  it('returns the whole envelope when asked, for endpoints whose message matters', async () => {
    mockFetch({ 'POST /api/setup': ok(undefined, '系统初始化完成') });
    const envelope = await requestEnvelope('POST', '/api/setup', { body: {} });
    expect(envelope.message).toBe('系统初始化完成');
  });

  it('sends the family headers: user id, no-store and the current language', async () => {
    setStoredUser(user);
    const { requests } = mockFetch({ 'GET /api/user/self': ok({}) });
    await api.get('/api/user/self');
    await i18n.changeLanguage('en');
    await api.get('/api/user/self');

    expect(requests[0].headers.get('New-Api-User')).toBe('42');
    expect(requests[0].headers.get('Cache-Control')).toBe('no-store');
    expect(requests[0].headers.get('Accept-Language')).toBe('zh');
    expect(requests[1].headers.get('Accept-Language')).toBe('en');
  });

  it('sends no user header when nobody is signed in', async () => {
    const { requests } = mockFetch({ 'GET /api/status': ok({}) });
    await api.get('/api/status');
    expect(requests[0].headers.has('New-Api-User')).toBe(false);
  });

  it('puts the query string together and sends JSON bodies', async () => {
    const { requests } = mockFetch({ 'POST /api/user/login': ok(user) });
    await api.post('/api/user/login', { username: 'a', password: 'b' }, { query: { turnstile: '', skip: undefined } });
    expect(requests[0].url.search).toBe('?turnstile=');
    expect(requests[0].headers.get('Content-Type')).toBe('application/json');
    expect(requests[0].body).toEqual({ username: 'a', password: 'b' });
  });

  it('surfaces a business failure with the server message', async () => {
    mockFetch({ 'GET /api/user/self': fail('用户已被封禁') });
    const error = await rejection(api.get('/api/user/self'));
    expect(error.kind).toBe('business');
    expect(error.message).toBe('用户已被封禁');
  });

  it('on 401 clears the stored user and hands over to the unauthorized handler', async () => {
    setStoredUser(user);
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockFetch({ 'GET /api/user/self': httpStatus(401) });

    const error = await rejection(api.get('/api/user/self'));
    expect(error.kind).toBe('unauthorized');
    expect(getStoredUser()).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('maps 429, 500 and 405 to the catalogue texts', async () => {
    mockFetch({
      'GET /api/a': httpStatus(429),
      'GET /api/b': httpStatus(500),
      'GET /api/c': httpStatus(405),
    });
    expect((await rejection(api.get('/api/a'))).message).toBe('请求过于频繁，请稍后再试');
    expect((await rejection(api.get('/api/b'))).message).toBe('服务器内部错误，请联系管理员');
    expect((await rejection(api.get('/api/c'))).message).toBe('本站仅作演示之用，无服务端！');
    await i18n.changeLanguage('en');
    expect((await rejection(api.get('/api/a'))).message).toBe('Too many requests, please try again later');
  });

  it('shows which limit a 429 hit and when to try again', async () => {
    mockFetch({
      'GET /api/a': () =>
        new Response(
          JSON.stringify({ success: false, message: '请求过于频繁：同一地址每 180 秒最多 360 次，请稍后再试' }),
          {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '180' },
          },
        ),
    });
    const error = await rejection(api.get('/api/a'));
    expect(error.status).toBe(429);
    expect(error.message).toBe('请求过于频繁：同一地址每 180 秒最多 360 次，请稍后再试（180 秒后可重试）');
  });

  it('shows why a 503 refused (the database is out of reach) and when to try again', async () => {
    mockFetch({
      'GET /api/a': () =>
        new Response(JSON.stringify({ success: false, message: '数据库暂时不可用，请稍后再试' }), {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '5' },
        }),
      // A proxy's own 503 page: no envelope, no Retry-After.
      'GET /api/b': () => new Response('<html>Service Unavailable</html>', { status: 503 }),
    });
    const error = await rejection(api.get('/api/a'));
    expect(error.status).toBe(503);
    expect(error.message).toBe('数据库暂时不可用，请稍后再试（5 秒后可重试）');
    expect((await rejection(api.get('/api/b'))).message).toBe('错误：请求失败（HTTP 503）');
  });

  it('prefixes other failures with 错误：', async () => {
    mockFetch({ 'GET /api/a': httpStatus(502) });
    expect((await rejection(api.get('/api/a'))).message).toBe('错误：请求失败（HTTP 502）');

    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const error = await rejection(api.get('/api/a'));
    expect(error.kind).toBe('network');
    expect(error.message).toBe('错误：Failed to fetch');
  });

  it('treats a non-envelope answer as an error rather than as data', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>', { status: 200 })));
    expect((await rejection(api.get('/api/a'))).message).toMatch(/^错误：/);
  });
});

describe('query client error display', () => {
  it('shows a business failure as an error toast', async () => {
    const shown = vi.spyOn(notify, 'error').mockImplementation(() => {});
    mockFetch({ 'GET /api/about': fail('无权进行此操作，权限不足') });
    const client = createQueryClient({ retry: false });
    const observer = new QueryObserver(client, { queryKey: ['about'], queryFn: () => api.get('/api/about') });
    const done = new Promise<void>((resolve) => {
      observer.subscribe((result) => {
        if (result.isError) resolve();
      });
    });
    await done;
    expect(shown).toHaveBeenCalledWith('无权进行此操作，权限不足');
  });

  it('stays quiet on 401 (the redirect says it) and for queries that show their own error', async () => {
    const shown = vi.spyOn(notify, 'error').mockImplementation(() => {});
    setUnauthorizedHandler(() => {});
    mockFetch({ 'GET /api/a': httpStatus(401), 'GET /api/b': fail('nope') });
    const client = createQueryClient({ retry: false });
    await client.fetchQuery({ queryKey: ['a'], queryFn: () => api.get('/api/a') }).catch(() => {});
    await client
      .fetchQuery({ queryKey: ['b'], queryFn: () => api.get('/api/b'), meta: { silentError: true } })
      .catch(() => {});
    expect(shown).not.toHaveBeenCalled();
  });
});
