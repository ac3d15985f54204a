import { z } from 'zod';

/** User verification the relying party asks for (WebAuthn's UserVerificationRequirement). */
export const PASSKEY_USER_VERIFICATION = ['required', 'preferred', 'discouraged'] as const;
/** Authenticator attachment preference ('' = either a platform authenticator or a roaming key). */
export const PASSKEY_ATTACHMENT = ['', 'platform', 'cross-platform'] as const;

export const PASSKEY_NAME_MAX = 64;

/** A passkey's label, chosen by its owner (ours: the family keeps one unnamed passkey per user). */
export const passkeyNameSchema = z.string().trim().min(1).max(PASSKEY_NAME_MAX);

/** One of the caller's passkeys as the personal page lists it; no key material. */
export interface PasskeyView {
  id: number;
  name: string;
  created_at: string | null;
  last_used_at: string | null;
  /** Synced to a cloud keychain (the credential's backup state). */
  backup_state: boolean;
  attachment: string;
}

/**
 * `GET /api/user/passkey`: the family's `{enabled, last_used_at}` (whether the caller has a passkey, and when the
 * most recently used one was last used), plus every passkey of the caller (ours: a user may have several).
 */
export interface PasskeyStatusView {
  enabled: boolean;
  last_used_at: string | null;
  passkeys: PasskeyView[];
}
