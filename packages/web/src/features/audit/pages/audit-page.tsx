import { AuditOutlined } from '@ant-design/icons';
import { isRoot } from '@gateway/shared';
import { Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListPageCard } from '../../../components/list/list-page-card';
import { readPageSize } from '../../../components/list/page-size';
import { useServerPagination } from '../../../components/list/server-pagination';
import { useSessionUser } from '../../../lib/session';
import { useIsMobile } from '../../../lib/use-media-query';
import { useAuditLogs } from '../api/use-audit-logs';
import { emptyAuditFilters } from '../audit-view';
import { AuditCards } from '../components/audit-cards';
import { AuditFiltersBar } from '../components/audit-filters';
import { AuditTable } from '../components/audit-table';
import '../audit.css';
import type { AuditListQuery } from '../types';

/** Who changed what, and who signed in: every admin and root change with its field diff, newest first. */
export default function AuditPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const root = isRoot(useSessionUser()?.role);
  const [query, setQuery] = useState<AuditListQuery>(() => ({
    ...emptyAuditFilters(),
    page: 1,
    pageSize: readPageSize(),
  }));
  const audit = useAuditLogs(query);
  const pagination = useServerPagination(query, setQuery, audit.data?.total ?? 0);
  const filtered = Boolean(query.action || query.actor.trim() || query.targetType || query.start || query.end);
  const List = isMobile ? AuditCards : AuditTable;

  const empty = (
    <ListEmpty
      failed={audit.isError}
      failedText={t('audit.load_failed')}
      onRetry={() => void audit.refetch()}
      filtered={filtered}
      noMatchText={t('audit.no_match')}
      icon={<AuditOutlined className="empty-icon" />}
      emptyText={t('audit.empty')}
    />
  );

  return (
    <ListPageCard title={t('audit.title')} subtitle={root ? t('audit.subtitle_root') : t('audit.subtitle_admin')}>
      <AuditFiltersBar
        searching={audit.isFetching && !audit.isPending}
        onApply={(next) => setQuery((previous) => ({ ...previous, ...next, page: 1 }))}
      />
      {audit.isPending ? (
        // antd's Skeleton drops data-* props: the wrapper carries the test id.
        <div data-testid="audit-skeleton">
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      ) : (
        <List rows={audit.data?.items ?? []} loading={audit.isFetching} pagination={pagination} empty={empty} />
      )}
    </ListPageCard>
  );
}
