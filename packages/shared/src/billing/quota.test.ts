import { describe, expect, it } from 'vitest';
import { perCallQuota, preConsumeQuota, pricePerMillion, ratioFromPrice, realtimeQuota, tokenQuota } from './quota.js';

const plain = { modelRatio: 1, completionRatio: 1, cacheRatio: 1, cacheCreationRatio: 1.25, groupRatio: 1 };

describe('tokenQuota (hand-worked)', () => {
  it.each([
    // gpt-4o-mini: ratio 0.075, completion 4; 1000 prompt + 500 completion = (1000 + 2000) × 0.075 = 225
    [{ promptTokens: 1000, completionTokens: 500 }, { ...plain, modelRatio: 0.075, completionRatio: 4 }, 225],
    // group ratio 2 doubles it
    [
      { promptTokens: 1000, completionTokens: 500 },
      { ...plain, modelRatio: 0.075, completionRatio: 4, groupRatio: 2 },
      450,
    ],
    // gpt-4o: ratio 1.25, completion 4, cache 0.5; 1000 prompt of which 400 cached, 100 out:
    // (600 + 400×0.5 + 100×4) × 1.25 = (600 + 200 + 400) × 1.25 = 1500
    [
      { promptTokens: 1000, completionTokens: 100, cachedTokens: 400 },
      { ...plain, modelRatio: 1.25, completionRatio: 4, cacheRatio: 0.5 },
      1500,
    ],
    // Claude cache writes at 1.25: 100 plain + 200 written ×1.25 + 10 out ×5, ratio 1.5 → (100+250+50)×1.5 = 600
    [
      { promptTokens: 300, completionTokens: 10, cacheCreationTokens: 200 },
      { ...plain, modelRatio: 1.5, completionRatio: 5 },
      600,
    ],
    // tiny but non-zero: at least 1
    [{ promptTokens: 1, completionTokens: 0 }, { ...plain, modelRatio: 0.01 }, 1],
    // no tokens: nothing
    [{ promptTokens: 0, completionTokens: 0 }, plain, 0],
    // free model (ratio 0): nothing
    [{ promptTokens: 100, completionTokens: 100 }, { ...plain, modelRatio: 0 }, 0],
    // rounding: 3 × 0.5 = 1.5 → 2
    [{ promptTokens: 3, completionTokens: 0 }, { ...plain, modelRatio: 0.5 }, 2],
  ])('%o at %o costs %i', (usage, pricing, expected) => {
    expect(tokenQuota(usage, pricing)).toBe(expected);
  });
});

describe('other formulas', () => {
  it('per-call price: $0.04 × 500000 × group 1.5 = 30000; n=2 doubles', () => {
    expect(perCallQuota(0.04, 1.5, 500000)).toBe(30000);
    expect(perCallQuota(0.04, 1.5, 500000, 2)).toBe(60000);
  });

  it('pre-consume: (max(120, 500) + 1000) × 1.25 × 1 = 1875', () => {
    expect(preConsumeQuota(120, 1000, 500, 1.25, 1)).toBe(1875);
    expect(preConsumeQuota(2000, 0, 500, 1, 2)).toBe(4000);
  });

  it('price per 1M tokens and back (spec 001 §4, §9)', () => {
    expect(pricePerMillion(1.25, 4, 1)).toEqual({ prompt: 2.5, completion: 10 });
    expect(pricePerMillion(0.075, 4, 2)).toEqual({ prompt: 0.3, completion: 1.2 });
    expect(ratioFromPrice(2.5, 10)).toEqual({ modelRatio: 1.25, completionRatio: 4 });
    expect(ratioFromPrice(3)).toEqual({ modelRatio: 1.5, completionRatio: 1 });
  });
});

describe('realtimeQuota (hand-worked)', () => {
  const audio = {
    ...plain,
    modelRatio: 2.5,
    completionRatio: 4,
    cacheRatio: 0.5,
    audioRatio: 8,
    audioCompletionRatio: 2,
  };
  const none = { textInput: 0, audioInput: 0, cachedText: 0, cachedAudio: 0, textOutput: 0, audioOutput: 0 };

  it.each([
    // 100 text in, 50 text out: (100 + 50×4) × 2.5 = 750
    [{ ...none, textInput: 100, textOutput: 50 }, 750],
    // 100 audio in, 10 audio out: (100×8 + 10×8×2) × 2.5 = 960 × 2.5 = 2400
    [{ ...none, audioInput: 100, audioOutput: 10 }, 2400],
    // cached: 40 of 100 text and 20 of 100 audio: (60 + 40×0.5 + (80 + 20×0.5)×8) × 2.5 = (80 + 720) × 2.5 = 2000
    [{ ...none, textInput: 100, cachedText: 40, audioInput: 100, cachedAudio: 20 }, 2000],
    // more cached than there were tokens counts only what there was: (50×0.5) × 2.5 = 62.5 → 63
    [{ ...none, textInput: 50, cachedText: 80 }, 63],
    // nothing used costs nothing
    [none, 0],
  ])('%o costs %i', (usage, quota) => {
    expect(realtimeQuota(usage, audio)).toBe(quota);
  });

  it('charges at least 1 for a priced response that used tokens', () => {
    expect(realtimeQuota({ ...none, textInput: 1 }, { ...audio, modelRatio: 0.01 })).toBe(1);
  });
});
