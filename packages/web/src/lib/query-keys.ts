// Query keys more than one feature touches: a feature invalidates another's cache through these, never by
// importing that feature (settings clear the logs; a token page counts the channels).

/** Every usage-log query (lists and stats) starts with this. */
export const logsQueryKey = ['logs'] as const;

/** Every channel query (lists, one channel, counts) starts with this. */
export const channelsQueryKey = ['channels'] as const;

/** The caller's two-factor status: the personal page's card and the console's ask-to-set-up banner share it. */
export const twoFactorStatusQueryKey = ['two-factor', 'status'] as const;
