/** One changed field of an audited entity, as stored in `audit_logs.diff` and shown on the audit page. */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** What a secret's value is replaced with: the row still says that it changed, never what it was or became. */
export const MASKED = '***';

export type Snapshot = Record<string, unknown>;

export interface DiffRules {
  /** Fields whose values are masked (keys, password hashes, access tokens). */
  secret?: ReadonlySet<string>;
  /** Fields the system keeps up to date by itself (counters, timestamps): not the admin's change. */
  ignore?: ReadonlySet<string>;
  /** Prefix for every field name, e.g. `GroupRatio.` for the entries of a JSON option. */
  prefix?: string;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** Empty stays visible as empty (set vs. cleared is no secret); anything else becomes the mask. */
export function maskValue(value: unknown): unknown {
  return isEmpty(value) ? (value ?? null) : MASKED;
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Field-level difference between two snapshots of one entity. `before` null is a creation and `after` null a
 * deletion: then only the fields that hold something are listed, so a new channel does not list twenty empty columns.
 */
export function fieldDiff(before: Snapshot | null, after: Snapshot | null, rules: DiffRules = {}): FieldChange[] {
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: FieldChange[] = [];
  for (const field of fields) {
    if (rules.ignore?.has(field)) continue;
    const old = before ? (before[field] ?? null) : null;
    const now = after ? (after[field] ?? null) : null;
    if (same(old, now)) continue;
    if ((before === null && isEmpty(now)) || (after === null && isEmpty(old))) continue;
    const secret = rules.secret?.has(field) ?? false;
    changes.push({
      field: `${rules.prefix ?? ''}${field}`,
      before: secret ? maskValue(old) : old,
      after: secret ? maskValue(now) : now,
    });
  }
  return changes;
}
