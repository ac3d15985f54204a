import { FileSearchOutlined, ReloadOutlined } from '@ant-design/icons';
import { PAGE_SIZES } from '@gateway/shared';
import { Button, Skeleton } from 'antd';
import type { TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../lib/use-media-query';
import { ListEmpty } from './list-empty';
import { ListPageCard } from './list-page-card';
import type { usePagedList } from './paged-list';

interface ListPageFrameProps<T> {
  title: string;
  subtitle: string;
  banner?: ReactNode;
  filters: ReactNode;
  pager: ReturnType<typeof usePagedList<T>>;
  pageSize: number;
  onPageSize: (size: number) => void;
  emptyText: string;
  skeletonTestId: string;
  children: (props: { pagination: TablePaginationConfig; empty: ReactNode }) => ReactNode;
}

/**
 * The frame the drawing and task logs share: title, optional banner, filters, and a list (table or cards) with a
 * skeleton on first load, an empty state, a retry on failure and the load-as-you-go pager.
 */
export function ListPageFrame<T>(props: ListPageFrameProps<T>) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const { pager, pageSize } = props;
  const empty = (
    <ListEmpty
      failed={pager.query.isError}
      failedText={t('task.load_failed')}
      onRetry={() => void pager.query.refetch()}
      icon={<FileSearchOutlined className="empty-icon" />}
      emptyText={props.emptyText}
    />
  );
  const pagination: TablePaginationConfig = {
    current: pager.page,
    pageSize,
    total: pager.total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    onChange: (page, size) => {
      if (size !== pageSize) props.onPageSize(size);
      else pager.setPage(page);
    },
  };
  return (
    <ListPageCard
      title={props.title}
      subtitle={props.subtitle}
      extra={
        <Button
          icon={<ReloadOutlined />}
          onClick={() => void pager.query.refetch()}
          loading={pager.query.isRefetching}
          aria-label={t('task.refresh')}
        >
          {isMobile ? null : t('task.refresh')}
        </Button>
      }
    >
      {props.banner}
      {props.filters}
      {pager.query.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} data-testid={props.skeletonTestId} />
      ) : (
        props.children({ pagination, empty })
      )}
    </ListPageCard>
  );
}
