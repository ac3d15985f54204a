import type { Provider } from '../../provider.js';
import { readUpstreamError } from '../errors.js';
import { openAiSoraVideo } from './video.js';

/** A Sora channel (type 55): OpenAI's Videos API alone; errors in OpenAI's shape. */
export const soraProvider: Provider = {
  functions: { video: openAiSoraVideo },
  error: readUpstreamError,
};
