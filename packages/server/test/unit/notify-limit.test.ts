import { describe, expect, it } from 'vitest';
import { NotifyLimit } from '../../src/services/notifications/notify-limit.js';

describe('NotifyLimit', () => {
  it('lets `count` notices of one type through per window, per user and type', () => {
    const limit = new NotifyLimit(2, 60_000);
    expect(limit.allow(1, 'channel_update', 0)).toBe(true);
    expect(limit.allow(1, 'channel_update', 1000)).toBe(true);
    expect(limit.allow(1, 'channel_update', 2000)).toBe(false);
    expect(limit.allow(2, 'channel_update', 2000)).toBe(true);
    expect(limit.allow(1, 'quota_exceed', 2000)).toBe(true);
    // The first notice leaves the window after a minute; the second is still inside it.
    expect(limit.allow(1, 'channel_update', 60_000)).toBe(true);
    expect(limit.allow(1, 'channel_update', 60_500)).toBe(false);
  });
});
