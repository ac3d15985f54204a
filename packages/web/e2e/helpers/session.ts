import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Product } from './product.js';
import type { ConsoleTexts } from './texts.js';

export const ADMIN = { username: 'admin', password: 'e2e-password-1' };

/** The one-time setup token a fresh product printed to its log at first start. */
export function setupTokenInLog(output: string): string {
  return /one-time setup token[^\n]*?: ([A-Za-z0-9_-]{16,})/.exec(output)?.[1] ?? '';
}

/**
 * The one-time setup token of a fresh product: the file it wrote beside its SQLite database, or (PostgreSQL,
 * MySQL: no file) the line it printed to its log.
 */
export function setupTokenOf(product: Pick<Product, 'dataDir' | 'output'>): string {
  const file = join(product.dataDir, '.setup_token');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : setupTokenInLog(product.output());
}

/** Completes first-run setup through the API (the setup page itself is covered by foundation.e2e.ts). */
export async function setupProduct(product: Pick<Product, 'baseUrl' | 'dataDir' | 'output'>): Promise<void> {
  // The log line may still be on its way through the pipe when the product first answers.
  let token = setupTokenOf(product);
  for (let waited = 0; !token && waited < 5_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    token = setupTokenOf(product);
  }
  const response = await fetch(`${product.baseUrl}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-setup-token': token },
    body: JSON.stringify({ ...ADMIN, confirmPassword: ADMIN.password }),
  });
  const body = (await response.json()) as { success: boolean; message: string };
  if (!body.success) throw new Error(`setup failed: ${body.message}`);
}

/**
 * Signs in through the login page like a person and waits for the console. Without `texts` the console is set to
 * Chinese (?lng=zh) and filled in by its Chinese labels; with them, the page keeps the browser's language and is
 * filled in by that language's labels.
 */
export async function signIn(page: Page, credentials = ADMIN, texts?: ConsoleTexts): Promise<void> {
  const t = texts?.t ?? ((key: string) => CHINESE_LOGIN[key as keyof typeof CHINESE_LOGIN]);
  await page.goto(texts ? '/login' : '/login?lng=zh');
  await page.getByLabel(t('login.username')).fill(credentials.username);
  await page.getByLabel(t('login.password')).fill(credentials.password);
  await page.getByRole('button', { name: t('login.submit'), exact: true }).click();
  await page.waitForURL('**/token');
}

const CHINESE_LOGIN = { 'login.username': '用户名或邮箱', 'login.password': '密码', 'login.submit': '登录' };

/**
 * The management API as the signed-in admin (or another account), for arranging state a journey does not need to
 * click through.
 */
export async function adminApi(baseUrl: string, credentials = ADMIN) {
  const login = await fetch(`${baseUrl}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const { data } = (await login.json()) as { data: { id: number } };
  return async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { cookie, 'new-api-user': String(data.id), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { success: boolean; message: string; data: T };
    if (!json.success) throw new Error(`${method} ${path}: ${json.message}`);
    return json.data;
  };
}

export type AdminApi = Awaited<ReturnType<typeof adminApi>>;
