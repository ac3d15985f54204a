import type { RuntimeChannel } from '../../types.js';

/** An Anthropic channel for the provider's table tests (no I/O: calls are only built, never sent). */
export const CLAUDE_TEST_CHANNEL: RuntimeChannel = {
  id: 1,
  type: 14,
  name: 'c',
  baseUrl: 'https://claude.test',
  key: 'k',
  other: '',
  organization: null,
};
