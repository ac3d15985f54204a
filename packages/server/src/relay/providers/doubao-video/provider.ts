import type { Provider } from '../../provider.js';
import { readUpstreamError } from '../errors.js';
import { seedanceVideo } from './video.js';

/**
 * Doubao Video (type 54), Seedance on Volcengine Ark, video only. The API key goes as a Bearer token in the call
 * itself, so there is no `open`. Ark's errors are OpenAI's shape (`{error: {code, message, type}}`), read as such.
 * The chat type 45 (VolcEngine) gains the same `seedanceVideo` through the registry's VIDEO_FUNCTIONS.
 */
export const doubaoVideoProvider: Provider = {
  functions: { video: seedanceVideo },
  error: readUpstreamError,
};
