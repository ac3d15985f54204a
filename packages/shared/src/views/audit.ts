// The audit trail's answer (`GET /api/audit/`).

/** One changed field of an audited entity; secrets come as '***' (see AUDIT_MASK). */
export interface AuditChangeView {
  field: string;
  before: unknown;
  after: unknown;
}

/** An audit row as `GET /api/audit/` returns it. */
export interface AuditLogView {
  id: number;
  /** Unix seconds. */
  created_at: number;
  /** Null for a failed sign-in: nobody was signed in. */
  actor_id: number | null;
  actor_username: string | null;
  /** `area.verb`, e.g. `channel.update`. */
  action: string;
  target_type: string;
  /** An id, an option key, or the name typed at a failed sign-in. */
  target_id: string;
  ip: string;
  diff: AuditChangeView[];
}
