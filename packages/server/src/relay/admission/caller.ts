// Only row types, erased at build time: any module can name the caller without loading admission's code.
import type { TokenRow, UserRow } from '../../db/schema.js';

/** Who is calling the relay, resolved from memory caches. */
export interface RelayCaller {
  token: TokenRow;
  user: UserRow;
  /** The token's group, or the user's when the token has none. */
  group: string;
  /** `sk-KEY-<id>` pins a channel (admins only). */
  pinnedChannelId: number | null;
  modelLimits: Set<string> | null;
  ip: string;
}
