/**
 * A value in a provider's userinfo JSON by a dotted path (`sub`, `data.user.id`, `emails.0.value`): the settings
 * say where each provider keeps the id, the login, the name and the address. A key that itself holds a dot
 * (`https://example.com/claims.email`) is tried whole first.
 */
export function claimAt(body: unknown, path: string): unknown {
  const trimmed = path.trim();
  if (!trimmed) return undefined;
  if (body && typeof body === 'object' && !Array.isArray(body) && trimmed in body) {
    return (body as Record<string, unknown>)[trimmed];
  }
  let value: unknown = body;
  for (const part of trimmed.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else if (value && typeof value === 'object' && !Array.isArray(value))
      value = (value as Record<string, unknown>)[part];
    else return undefined;
  }
  return value;
}

/** The claim as text: strings as they are, finite numbers and booleans written out, anything else ''. */
export function claimText(body: unknown, path: string): string {
  const value = claimAt(body, path);
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return '';
}
