import { FileSearchOutlined, ReloadOutlined } from '@ant-design/icons';
import { PAGE_SIZES } from '@gateway/shared';
import { Button, Card, Empty, Flex, Skeleton, Typography } from 'antd';
import type { TablePaginationConfig } from 'antd/es/table';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../lib/use-media-query';
import { readLogPageSize, writeLogPageSize } from '../../log/log-prefs';
import type { usePagedList } from '../paged-list';

/** The remembered page size (shared with the family's other tables) and its setter. */
export function usePageSize() {
  const [pageSize, setPageSize] = useState(readLogPageSize);
  const change = (size: number) => {
    writeLogPageSize(size);
    setPageSize(size);
  };
  return [pageSize, change] as const;
}

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
  const empty = pager.query.isError ? (
    <Empty description={t('task.load_failed')}>
      <Button icon={<ReloadOutlined />} onClick={() => void pager.query.refetch()}>
        {t('common.retry')}
      </Button>
    </Empty>
  ) : (
    <Empty image={<FileSearchOutlined className="empty-icon" />} description={props.emptyText} />
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
    <div className="page-container task-page-wide">
      <Card styles={{ body: { padding: isMobile ? 12 : 24 } }}>
        <Flex vertical gap={16}>
          <Flex justify="space-between" align="flex-start" gap={12} wrap>
            <div>
              <Typography.Title level={4} style={{ margin: 0 }}>
                {props.title}
              </Typography.Title>
              <Typography.Text type="secondary">{props.subtitle}</Typography.Text>
            </div>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void pager.query.refetch()}
              loading={pager.query.isRefetching}
              aria-label={t('task.refresh')}
            >
              {isMobile ? null : t('task.refresh')}
            </Button>
          </Flex>
          {props.banner}
          {props.filters}
          {pager.query.isPending ? (
            <Skeleton active paragraph={{ rows: 8 }} data-testid={props.skeletonTestId} />
          ) : (
            props.children({ pagination, empty })
          )}
        </Flex>
      </Card>
    </div>
  );
}
