/** The Spark product names and the API versions they run on (family table). */
const VERSION_OF_MODEL: Record<string, string> = {
  'Spark-Lite': 'v1.1',
  'Spark-Pro': 'v3.1',
  'Spark-Pro-128K': 'v3.1-128K',
  'Spark-Max': 'v3.5',
  'Spark-Max-32K': 'v3.5-32K',
  'Spark-4.0-Ultra': 'v4.0',
};

const DOMAIN_OF_VERSION: Record<string, string> = {
  'v1.1': 'lite',
  'v2.1': 'generalv2',
  'v3.1': 'generalv3',
  'v3.1-128K': 'pro-128k',
  'v3.5': 'generalv3.5',
  'v3.5-32K': 'max-32k',
  'v4.0': '4.0Ultra',
};

const PATH_OF_VERSION: Record<string, string> = { 'v3.1-128K': '/chat/pro-128k', 'v3.5-32K': '/chat/max-32k' };

export interface SparkVersion {
  /** `parameter.chat.domain` of the request frame. */
  domain: string;
  /** The WebSocket path, e.g. `/v3.5/chat`. */
  path: string;
}

/**
 * Which Spark API serves a model: a product name (Spark-Max), else the version after the first dash of the name
 * (SparkDesk-v3.5 → v3.5), else the channel's `other` (the version, e.g. v3.5), else the form's default.
 */
export function sparkVersion(model: string, other: string, fallback: string): SparkVersion {
  const dash = model.indexOf('-');
  const version = VERSION_OF_MODEL[model] ?? (dash === -1 ? '' : model.slice(dash + 1));
  const chosen = version || other.trim() || fallback;
  return {
    domain: DOMAIN_OF_VERSION[chosen] ?? `general${chosen}`,
    path: PATH_OF_VERSION[chosen] ?? `/${chosen}/chat`,
  };
}
