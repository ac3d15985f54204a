import type { Page } from '@gateway/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { auditFilterQuery } from '../audit-view';
import type { AuditItem, AuditListQuery } from '../types';

/** One page of the audit trail (admins and root; option rows only for root, the server decides). */
export function useAuditLogs(query: AuditListQuery) {
  return useQuery({
    queryKey: ['audit', 'list', query],
    queryFn: ({ signal }) =>
      api.get<Page<AuditItem>>('/api/audit/', {
        query: { p: query.page, page_size: query.pageSize, ...auditFilterQuery(query) },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
