import { createHmac } from 'node:crypto';

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/**
 * Kling's API token: a JWT signed with HS256 by the secret key, issued by the access key, valid for half an hour and
 * from five seconds ago (a little clock skew between us and Kling must not make a fresh token "not yet valid").
 * Made for every call, so a token never outlives the call it authorises.
 */
export function klingToken(accessKey: string, secretKey: string, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify({ iss: accessKey, exp: nowSeconds + 1800, nbf: nowSeconds - 5 }));
  const signature = createHmac('sha256', secretKey).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The channel key `AccessKey|SecretKey`, each part trimmed (keys are often pasted with spaces). */
export function klingKeyParts(key: string): { accessKey: string; secretKey: string } {
  const [accessKey = '', secretKey = ''] = key.split('|').map((part) => part.trim());
  return { accessKey, secretKey };
}
