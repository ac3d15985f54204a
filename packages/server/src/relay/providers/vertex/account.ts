import { createPrivateKey, type KeyObject } from 'node:crypto';

/** Google's OAuth token endpoint, for a key file that names none. */
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** The fields of a service-account key file (the JSON the Cloud console downloads) the provider uses. */
export interface ServiceAccount {
  clientEmail: string;
  privateKeyId: string;
  projectId: string;
  tokenUri: string;
  /** The project billed for quota when it is not the key's own (google-auth-library's `quota_project_id`). */
  quotaProjectId?: string;
  /** Parsed once per key, so signing an assertion costs no PEM parsing. */
  signingKey: KeyObject;
}

/** Why a channel key is no usable service account: said to the admin, never quoting the key itself. */
export interface KeyProblem {
  problem: string;
}

const parsed = new Map<string, ServiceAccount | KeyProblem>();

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Whether a channel key is a service-account JSON rather than a Vertex API key (express mode). The family decides
 * by the channel's `vertex_key_type` setting; a key's own shape says the same and needs no setting.
 */
export function isServiceAccountKey(key: string): boolean {
  return key.trimStart().startsWith('{');
}

function readAccount(key: string): ServiceAccount | KeyProblem {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(key) as Record<string, unknown>;
  } catch {
    return { problem: 'the Vertex AI channel key is not valid JSON (paste the whole service-account key file)' };
  }
  const clientEmail = text(json.client_email);
  const projectId = text(json.project_id);
  const pem = text(json.private_key);
  const missing = [
    ['client_email', clientEmail],
    ['private_key', pem],
    ['project_id', projectId],
  ].filter(([, value]) => !value);
  if (missing.length) {
    return { problem: `the Vertex AI service-account key has no ${missing.map(([name]) => name).join(', ')}` };
  }
  let signingKey: KeyObject;
  try {
    signingKey = createPrivateKey(pem);
  } catch {
    return { problem: 'the private_key of the Vertex AI service-account key is not a readable PEM private key' };
  }
  const quotaProjectId = text(json.quota_project_id);
  return {
    clientEmail,
    privateKeyId: text(json.private_key_id),
    projectId,
    tokenUri: text(json.token_uri) || GOOGLE_TOKEN_URI,
    ...(quotaProjectId ? { quotaProjectId } : {}),
    signingKey,
  };
}

/** The channel key read as a service account (once per key), or what is wrong with it. */
export function serviceAccountOf(key: string): ServiceAccount | KeyProblem {
  let account = parsed.get(key);
  if (!account) {
    account = readAccount(key);
    parsed.set(key, account);
  }
  return account;
}
