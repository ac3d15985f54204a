import { FileSearchOutlined, ReloadOutlined } from '@ant-design/icons';
import { isAdmin, PAGE_SIZES } from '@gateway/shared';
import { Button, Card, Empty, Flex, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
import { readLogPageSize, writeLogPageSize } from '../log-prefs';
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
    pageSize: readLogPageSize(),
  }));
  const filters: LogFilters = useMemo(() => {
    const { page: _page, pageSize: _pageSize, ...rest } = query;
    return rest;
  }, [query]);
  const logs = useLogs(query, admin);
  const stat = useLogStat(filters, admin);
  const [viewedUser, setViewedUser] = useState<{ id: number; name: string } | null>(null);
  const List = isMobile ? LogCards : LogTable;

  const rows: LogRow[] = useMemo(
    () => (logs.data?.items ?? []).map((log) => ({ ...log, parsed: parseOther(log.other) })),
    [logs.data],
  );

  const refresh = () => {
    void logs.refetch();
    void stat.refetch();
  };

  const empty = logs.isError ? (
    <Empty description={t('log.load_failed')}>
      <Button icon={<ReloadOutlined />} onClick={() => void logs.refetch()}>
        {t('common.retry')}
      </Button>
    </Empty>
  ) : (
    <Empty image={<FileSearchOutlined className="empty-icon" />} description={t('log.empty')} />
  );

  return (
    <div className="page-container page-container-wide">
      <Card styles={{ body: { padding: isMobile ? 12 : 24 } }}>
        <Flex vertical gap={16}>
          <Flex justify="space-between" align="flex-start" gap={12} wrap>
            <div>
              <Typography.Title level={4} style={{ margin: 0 }}>
                {t('log.title')}
              </Typography.Title>
              <Typography.Text type="secondary">{admin ? t('log.subtitle_admin') : t('log.subtitle')}</Typography.Text>
            </div>
            <LogStats stat={stat.data} loading={stat.isFetching} failed={stat.isError} onRefresh={refresh} />
          </Flex>

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
              pagination={{
                current: query.page,
                pageSize: query.pageSize,
                total: logs.data?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZES.map(String),
                showTotal: (total) => t('ui.total', { total }),
                onChange: (page, pageSize) => {
                  if (pageSize !== query.pageSize) writeLogPageSize(pageSize);
                  setQuery((previous) => ({
                    ...previous,
                    page: pageSize !== previous.pageSize ? 1 : page,
                    pageSize,
                  }));
                },
              }}
            />
          )}
        </Flex>
      </Card>
      {admin && (
        <UserDetailModal
          userId={viewedUser?.id ?? null}
          username={viewedUser?.name ?? ''}
          onClose={() => setViewedUser(null)}
        />
      )}
    </div>
  );
}
