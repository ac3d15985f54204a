import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { CALLBACK_RETRIES, exchangeWithRetries } from './exchange-with-retries';

const noWait = async () => undefined;

describe('exchangeWithRetries', () => {
  it('retries transport failures with growing waits and returns the first success', async () => {
    const waits: number[] = [];
    const retries: number[] = [];
    let calls = 0;
    const result = await exchangeWithRetries(
      async () => {
        calls++;
        if (calls < 3) throw new ApiError('bad gateway', 'http', 502);
        return 'done';
      },
      (attempt) => retries.push(attempt),
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(result).toBe('done');
    expect(retries).toEqual([1, 2]);
    expect(waits).toEqual([2000, 4000]);
  });

  it('gives up after the last retry with the last error', async () => {
    let calls = 0;
    const attempt = exchangeWithRetries(
      async () => {
        calls++;
        throw new ApiError(`network ${calls}`, 'network');
      },
      () => undefined,
      noWait,
    );
    await expect(attempt).rejects.toThrow(`network ${CALLBACK_RETRIES + 1}`);
    expect(calls).toBe(CALLBACK_RETRIES + 1);
  });

  it('does not retry a business refusal or an unauthorised answer', async () => {
    for (const error of [new ApiError('state invalid', 'business'), new ApiError('expired', 'unauthorized', 401)]) {
      let calls = 0;
      const attempt = exchangeWithRetries(
        async () => {
          calls++;
          throw error;
        },
        () => undefined,
        noWait,
      );
      await expect(attempt).rejects.toBe(error);
      expect(calls).toBe(1);
    }
  });
});
