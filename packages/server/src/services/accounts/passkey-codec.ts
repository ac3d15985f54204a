/** The family stores credential ids and keys in standard base64; WebAuthn JSON carries them in base64url. */
export function base64UrlToStandard(value: string): string {
  return Buffer.from(value, 'base64url').toString('base64');
}

export function standardToBase64Url(value: string): string {
  return Buffer.from(value, 'base64').toString('base64url');
}

/** An AAGUID as the family stores it: its 16 bytes in standard base64 (SimpleWebAuthn gives a UUID string). */
export function aaguidToStandard(uuid: string): string {
  return Buffer.from(uuid.replaceAll('-', ''), 'hex').toString('base64');
}

/** The WebAuthn user handle: the user's id in decimal, as the family's passkeys carry it. */
export function userHandleOf(userId: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(String(userId), 'utf8'));
}

/** The decimal user id an assertion's user handle (base64url) names, or null when it names none. */
export function userIdOfHandle(handle: string): number | null {
  const text = Buffer.from(handle, 'base64url').toString('utf8');
  return /^\d+$/.test(text) ? Number(text) : null;
}
