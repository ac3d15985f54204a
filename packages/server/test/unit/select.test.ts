import { describe, expect, it } from 'vitest';
import { pickChannel } from '../../src/relay/select.js';

const sequence = (...values: number[]) => {
  let index = 0;
  return () => values[index++ % values.length]!;
};

describe('pickChannel', () => {
  const channels = [
    { id: 1, priority: 10, weight: 1 },
    { id: 2, priority: 10, weight: 3 },
    { id: 3, priority: 5, weight: 0 },
    { id: 4, priority: 0, weight: 0 },
  ];

  it('takes the highest priority tier first and weighs inside it', () => {
    // weights 1 and 3 (avg 2 < 10 → ×100): 0..100 → 1, 100..400 → 2
    expect(pickChannel(channels, 0, new Set(), sequence(0.2))!.id).toBe(1);
    expect(pickChannel(channels, 0, new Set(), sequence(0.3))!.id).toBe(2);
  });

  it('moves one tier down per retry and repeats the last tier', () => {
    expect(pickChannel(channels, 1)!.id).toBe(3);
    expect(pickChannel(channels, 2)!.id).toBe(4);
    expect(pickChannel(channels, 7)!.id).toBe(4);
  });

  it('never picks a channel that already failed in this request', () => {
    expect(pickChannel(channels, 0, new Set([2]), sequence(0.99))!.id).toBe(1);
    expect(pickChannel(channels, 0, new Set([1, 2]))!.id).toBe(3);
    // last tier exhausted: goes back up to the untried higher tiers
    expect(pickChannel(channels, 3, new Set([4, 3]), sequence(0))!.id).toBe(1);
    expect(pickChannel(channels, 0, new Set([1, 2, 3, 4]))).toBeUndefined();
  });

  it('spreads traffic by weight over many picks', () => {
    const counts = new Map<number, number>();
    let seed = 1;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let index = 0; index < 10_000; index++) {
      const id = pickChannel(channels, 0, new Set(), random)!.id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const share = counts.get(2)! / 10_000;
    expect(share).toBeGreaterThan(0.72);
    expect(share).toBeLessThan(0.78);
  });

  it('treats an all-zero tier as equal weights', () => {
    const zero = [
      { id: 7, priority: 0, weight: 0 },
      { id: 8, priority: 0, weight: 0 },
    ];
    expect(pickChannel(zero, 0, new Set(), sequence(0.1))!.id).toBe(7);
    expect(pickChannel(zero, 0, new Set(), sequence(0.6))!.id).toBe(8);
  });
});
