import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The "epay" (易支付) protocol: parameters sorted by name, `k=v` joined with `&` (without `sign`, `sign_type` and
 * empty values), the merchant key appended, MD5 in lower-case hex.
 */
export function epaySign(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '' && params[name] !== undefined)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5')
    .update(text + key, 'utf8')
    .digest('hex');
}

/** Constant-time check of a notification's signature, so a forger learns nothing from response timing. */
export function epayVerify(params: Record<string, string>, key: string): boolean {
  const given = Buffer.from(String(params.sign ?? '').toLowerCase());
  const expected = Buffer.from(epaySign(params, key));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
