import { Button, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import { type Key, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/list/list-table';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { isCallLog } from '../log-view';
import { useLogContent } from '../use-log-content';
import {
  ChannelCell,
  GroupTag,
  type LogRow,
  ModelCell,
  RetryCell,
  TimeCell,
  TimingCell,
  TokenTag,
  TypeTag,
  UserCell,
} from './log-cells';
import { LogDetails } from './log-details';

export interface LogListProps {
  logs: LogRow[];
  admin: boolean;
  loading: boolean;
  pagination: TablePaginationConfig;
  onOpenUser: (log: LogRow) => void;
  empty: ReactNode;
}

export function QuotaText({ log }: { log: LogRow }) {
  const formatQuota = useFormatQuota();
  if (!isCallLog(log) && !log.quota) return null;
  // The formatter rounds to cents; the raw figure is there for calls that cost less.
  return (
    <span className="nowrap" title={String(log.quota)}>
      {formatQuota(log.quota)}
    </span>
  );
}

/** Usage logs on a wide screen: one row per log, the `other` details in an expandable row. */
export function LogTable({ logs, admin, loading, pagination, onOpenUser, empty }: LogListProps) {
  const { t } = useTranslation();
  const logContent = useLogContent();
  const [expanded, setExpanded] = useState<Key[]>([]);

  const toggle = (id: number) =>
    setExpanded((keys) => (keys.includes(id) ? keys.filter((key) => key !== id) : [...keys, id]));

  const columns: ColumnsType<LogRow> = [
    // Fixed edge columns keep the time and the details button in view when the table scrolls sideways, and make
    // antd pin an opened row's details to the visible width.
    { key: 'time', title: t('log.col_time'), fixed: 'left', render: (_, log) => <TimeCell log={log} stacked /> },
    ...(admin
      ? ([
          { key: 'channel', title: t('log.col_channel'), render: (_, log) => <ChannelCell log={log} stacked /> },
          {
            key: 'user',
            title: t('log.col_user'),
            render: (_, log) => <UserCell log={log} onOpen={onOpenUser} />,
          },
        ] satisfies ColumnsType<LogRow>)
      : []),
    { key: 'token', title: t('log.col_token'), render: (_, log) => <TokenTag name={log.token_name} /> },
    { key: 'group', title: t('log.col_group'), render: (_, log) => <GroupTag group={log.group} /> },
    { key: 'type', title: t('log.col_type'), render: (_, log) => <TypeTag type={log.type} /> },
    { key: 'model', title: t('log.col_model'), render: (_, log) => <ModelCell log={log} /> },
    // What a call cost and which channels it went through come right after the model: at 1366 px everything
    // after them may need a sideways scroll, and these two are what people look for.
    {
      key: 'quota',
      title: t('log.col_quota'),
      align: 'right',
      width: 96,
      render: (_, log) => <QuotaText log={log} />,
    },
    ...(admin
      ? ([
          { key: 'retry', title: t('log.col_retry'), width: 120, render: (_, log) => <RetryCell log={log} /> },
        ] satisfies ColumnsType<LogRow>)
      : []),
    { key: 'timing', title: t('log.col_timing'), render: (_, log) => <TimingCell log={log} /> },
    {
      key: 'tokens',
      title: t('log.col_prompt_completion'),
      align: 'right',
      render: (_, log) =>
        isCallLog(log) ? (
          <span className="nowrap log-tokens">
            {log.prompt_tokens} / {log.completion_tokens}
          </span>
        ) : null,
    },
    {
      key: 'details',
      title: t('log.col_details'),
      fixed: 'right',
      // The cell's own max width is the same: a wider cell than its column slid it over the column before.
      width: 160,
      render: (_, log) => (
        <div className="log-content-cell">
          <Typography.Text
            ellipsis={{ tooltip: logContent(log) }}
            className="log-content-text"
            style={{ maxWidth: 80 }}
          >
            {logContent(log)}
          </Typography.Text>
          <Button type="link" size="small" onClick={() => toggle(log.id)} className="log-detail-toggle">
            {expanded.includes(log.id) ? t('log.hide_details') : t('log.show_details')}
          </Button>
        </div>
      ),
    },
  ];

  return (
    <ListTable<LogRow>
      testId="log-table"
      empty={empty}
      size="small"
      columns={columns}
      dataSource={logs}
      loading={loading}
      pagination={pagination}
      expandable={{
        // The details button in the last column opens a row; a second toggle column would only cost width.
        showExpandColumn: false,
        expandedRowKeys: expanded,
        onExpandedRowsChange: (keys) => setExpanded([...keys]),
        expandedRowRender: (log) => <LogDetails log={log} admin={admin} />,
      }}
    />
  );
}
