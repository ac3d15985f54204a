import { FileSearchOutlined } from '@ant-design/icons';
import { isAdmin } from '@gateway/shared';
import { Skeleton } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListPageCard } from '../../../components/list/list-page-card';
import { readPageSize } from '../../../components/list/page-size';
import { useServerPagination } from '../../../components/list/server-pagination';
import { useSessionUser } from '../../../lib/session';
import { useIsMobile } from '../../../lib/use-media-query';
import { useLogStat } from '../api/use-log-stat';
import { useLogs } from '../api/use-logs';
import { LogCards } from '../components/log-cards';
import type { LogRow } from '../components/log-cells';
import { LogFiltersBar } from '../components/log-filters';
import { LogStats } from '../components/log-stats';
import { LogTable } from '../components/log-table';
import { UserDetailModal } from '../components/user-detail-modal';
import '../log.css';
import { emptyFilters, parseOther } from '../log-view';
import type { LogFilters, LogListQuery } from '../types';

export default function LogPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const admin = isAdmin(useSessionUser()?.role);
  const [initialFilters] = useState(() => emptyFilters());
  const [query, setQuery] = useState<LogListQuery>(() => ({
    ...initialFilters,
    page: 1,
    pageSize: readPageSize(),
  }));
  const filters: LogFilters = useMemo(() => {
    const { page: _page, pageSize: _pageSize, ...rest } = query;
    return rest;
  }, [query]);
  const logs = useLogs(query, admin);
  const stat = useLogStat(filters, admin);
  const [viewedUser, setViewedUser] = useState<{ id: number; name: string } | null>(null);
  const List = isMobile ? LogCards : LogTable;
  const pagination = useServerPagination(query, setQuery, logs.data?.total ?? 0);

  const rows: LogRow[] = useMemo(
    () => (logs.data?.items ?? []).map((log) => ({ ...log, parsed: parseOther(log.other) })),
    [logs.data],
  );

  const refresh = () => {
    void logs.refetch();
    void stat.refetch();
  };

  const empty = (
    <ListEmpty
      failed={logs.isError}
      failedText={t('log.load_failed')}
      onRetry={() => void logs.refetch()}
      icon={<FileSearchOutlined className="empty-icon" />}
      emptyText={t('log.empty')}
    />
  );

  return (
    <ListPageCard
      title={t('log.title')}
      subtitle={admin ? t('log.subtitle_admin') : t('log.subtitle')}
      extra={<LogStats stat={stat.data} loading={stat.isFetching} failed={stat.isError} onRefresh={refresh} />}
      overlays={
        admin && (
          <UserDetailModal
            userId={viewedUser?.id ?? null}
            username={viewedUser?.name ?? ''}
            onClose={() => setViewedUser(null)}
          />
        )
      }
    >
      <LogFiltersBar
        initial={initialFilters}
        admin={admin}
        searching={logs.isFetching && !logs.isPending}
        onApply={(next) => setQuery((previous) => ({ ...previous, ...next, page: 1 }))}
      />

      {logs.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} data-testid="log-skeleton" />
      ) : (
        <List
          logs={rows}
          admin={admin}
          loading={logs.isFetching}
          onOpenUser={(log) => setViewedUser({ id: log.user_id, name: log.username })}
          empty={empty}
          pagination={pagination}
        />
      )}
    </ListPageCard>
  );
}
