import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { type MockUpstream, startMockUpstream } from '../../../server/test/mock-upstream/index.js';
import { launchBrowser } from './browser.js';
import { type Product, startProduct } from './product.js';
import { type AdminApi, adminApi, setupProduct } from './session.js';

const BUILT_CONSOLE = resolve(import.meta.dirname, '../../dist');

export interface JourneyOptions {
  /** Extra environment for the product, e.g. where a journey's fake outside service listens. */
  env?: Record<string, string>;
  /**
   * Serve a private copy of the built console: a rebuild elsewhere in the checkout must not swap its assets in the
   * middle of a long journey.
   */
  privateConsole?: boolean;
}

/** What every browser journey starts from; `close` ends it all, in the reverse order of starting. */
export interface FreshJourney {
  product: Product;
  browser: Browser;
  close(): Promise<void>;
}

export interface Journey extends FreshJourney {
  /** The management API as the signed-in admin, for arranging state a journey does not click through. */
  api: AdminApi;
}

/**
 * The built product on a fresh database and a headless Chromium, before first-run setup: only for the journey that
 * goes through the setup page itself (the others want `startJourney`).
 */
export async function startFreshJourney({
  env = {},
  privateConsole = false,
}: JourneyOptions = {}): Promise<FreshJourney> {
  const cleanups: Array<() => unknown> = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  // A start that fails half-way leaves the caller nothing to close, so the parts already started are ended here.
  try {
    let productEnv = env;
    if (privateConsole) {
      const consoleCopy = mkdtempSync(join(tmpdir(), 'gateway-e2e-web-'));
      cleanups.push(() => rmSync(consoleCopy, { recursive: true, force: true }));
      cpSync(BUILT_CONSOLE, consoleCopy, { recursive: true });
      productEnv = { WEB_DIST: consoleCopy, ...env };
    }
    const product = await startProduct(productEnv);
    cleanups.push(() => product.stop());
    const browser = await launchBrowser();
    cleanups.push(() => browser.close());
    return { product, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The usual start of a browser journey: the product past first-run setup, the admin's API and a browser. */
export async function startJourney(options: JourneyOptions = {}): Promise<Journey> {
  const journey = await startFreshJourney(options);
  try {
    await setupProduct(journey.product);
    return { ...journey, api: await adminApi(journey.product.baseUrl) };
  } catch (error) {
    await journey.close();
    throw error;
  }
}

/** A journey whose product calls a mock upstream (the only part simulated); `close` ends the mock too. */
export interface UpstreamJourney extends Journey {
  mock: MockUpstream;
}

export async function startUpstreamJourney(options: JourneyOptions = {}): Promise<UpstreamJourney> {
  const mock = await startMockUpstream();
  try {
    const journey = await startJourney(options);
    const close = async () => {
      await journey.close();
      await mock.close();
    };
    return { ...journey, mock, close };
  } catch (error) {
    await mock.close();
    throw error;
  }
}
