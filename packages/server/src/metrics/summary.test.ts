import { describe, expect, it } from 'vitest';
import { bucketQuantile } from './summary.js';

describe('bucketQuantile (as Prometheus histogram_quantile reads buckets)', () => {
  const bounds = [0.1, 0.5, 1];
  it.each([
    // 10 observations all in (0.1, 0.5]: the median is halfway through that bucket.
    [[0, 10, 0, 0], 0.5, 0.3],
    // 4 in [0, 0.1], 4 in (0.1, 0.5], 2 in (0.5, 1]: rank 9.5 of 10 falls 3/4 into the third bucket.
    [[4, 4, 2, 0], 0.95, 0.875],
    // Everything above the top bound: its lower bound is all that is known.
    [[0, 0, 0, 3], 0.5, 1],
  ] as Array<[number[], number, number]>)('%j at %d → %d', (counts, q, expected) => {
    expect(bucketQuantile(bounds, counts, q)).toBeCloseTo(expected, 10);
  });
  it('is null without observations', () => {
    expect(bucketQuantile(bounds, [0, 0, 0, 0], 0.5)).toBeNull();
  });
});
