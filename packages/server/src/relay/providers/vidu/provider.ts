import type { Provider } from '../../provider.js';
import { viduError } from './response.js';
import { viduVideo } from './video.js';

/**
 * Vidu (ShengShu, type 52), video only. The key is sent as it is (`Authorization: Token <key>`), so there is no `open`:
 * the engine's plain request carries it. Finished videos are public URLs on Vidu's storage, fetched without the key.
 */
export const viduProvider: Provider = {
  functions: { video: viduVideo },
  error: viduError,
};
