// The answer shapes are declared once in @gateway/shared; this console keeps its own names for them.
import type { AuditChangeView as AuditChange, AuditLogView as AuditItem } from '@gateway/shared';

export type { AuditChange, AuditItem };

export interface AuditFilters {
  action: string;
  actor: string;
  targetType: string;
  /** Unix seconds, 0 for open. */
  start: number;
  end: number;
}

export interface AuditListQuery extends AuditFilters {
  page: number;
  pageSize: number;
}
