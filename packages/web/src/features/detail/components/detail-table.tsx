import { DownloadOutlined } from '@ant-design/icons';
import { PAGE_SIZES } from '@gateway/shared';
import { Button, Card, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { downloadText } from '../../../lib/download';
import { notify } from '../../../lib/notify';
import { bucketLabel, exportedBucketTime, type TableRow, toCsv } from '../aggregate';
import type { Granularity } from '../types';

interface DetailTableProps {
  rows: TableRow[];
  granularity: Granularity;
  admin: boolean;
  /** For the file name: the range shown. */
  range: { start: number; end: number };
}

/** The numbers behind the charts, per time bucket, user and model, with an export of exactly these rows. */
export function DetailTable({ rows, granularity, admin, range }: DetailTableProps) {
  const { t, i18n } = useTranslation();
  const formatQuota = useFormatQuota();
  const [pageSize, setPageSize] = useState(10);
  const number = (value: number) => value.toLocaleString(i18n.language);

  const columns: TableColumnsType<TableRow> = [
    { title: t('detail.col_time'), dataIndex: 'bucket', render: (bucket: number) => bucketLabel(bucket, granularity) },
    ...(admin ? [{ title: t('detail.col_user'), dataIndex: 'username' }] : []),
    { title: t('detail.col_model'), dataIndex: 'model', render: (model: string) => <Tag>{model}</Tag> },
    { title: t('detail.col_requests'), dataIndex: 'count', align: 'right', render: number },
    { title: t('detail.col_tokens'), dataIndex: 'tokens', align: 'right', render: number },
    { title: t('detail.col_quota'), dataIndex: 'quota', align: 'right', render: (quota: number) => formatQuota(quota) },
  ];

  const exportCsv = () => {
    const header = [
      t('detail.col_time'),
      ...(admin ? [t('detail.col_user')] : []),
      t('detail.col_model'),
      t('detail.col_requests'),
      t('detail.col_tokens'),
      t('detail.col_quota_raw'),
      t('detail.col_quota'),
    ];
    const lines = rows.map((row) => [
      exportedBucketTime(row.bucket, granularity),
      ...(admin ? [row.username] : []),
      row.model,
      row.count,
      row.tokens,
      row.quota,
      formatQuota(row.quota),
    ]);
    const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10).replace(/-/g, '');
    try {
      downloadText(
        `usage-${day(range.start)}-${day(range.end)}-${granularity}.csv`,
        toCsv(header, lines),
        'text/csv',
        true,
      );
    } catch (error) {
      notify.error(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Card
      size="small"
      title={t('detail.table_title')}
      extra={
        <Button icon={<DownloadOutlined />} onClick={exportCsv} disabled={rows.length === 0}>
          {t('detail.export_csv')}
        </Button>
      }
    >
      <Table<TableRow>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        data-testid="detail-table"
        pagination={{
          pageSize,
          pageSizeOptions: PAGE_SIZES.map(String),
          showSizeChanger: true,
          showTotal: (total) => t('ui.total', { total }),
          onShowSizeChange: (_, size) => setPageSize(size),
        }}
      />
    </Card>
  );
}
