import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/list/list-table';
import type { AuditItem } from '../types';
import { ActionTag, ActorText, TargetText, TimeText } from './audit-cells';
import { AuditDiff } from './audit-diff';

export interface AuditListProps {
  rows: AuditItem[];
  loading: boolean;
  pagination: TablePaginationConfig;
  empty: ReactNode;
}

/** The audit trail on a wide screen: one row per change, the diff in the last column. */
export function AuditTable({ rows, loading, pagination, empty }: AuditListProps) {
  const { t } = useTranslation();
  const columns: ColumnsType<AuditItem> = [
    { key: 'time', title: t('audit.col_time'), render: (_, row) => <TimeText row={row} /> },
    { key: 'actor', title: t('audit.col_actor'), render: (_, row) => <ActorText row={row} /> },
    { key: 'action', title: t('audit.col_action'), render: (_, row) => <ActionTag action={row.action} /> },
    { key: 'target', title: t('audit.col_target'), render: (_, row) => <TargetText row={row} /> },
    { key: 'ip', title: t('audit.col_ip'), render: (_, row) => <span className="nowrap">{row.ip}</span> },
    { key: 'diff', title: t('audit.col_changes'), render: (_, row) => <AuditDiff changes={row.diff} /> },
  ];
  return (
    <ListTable<AuditItem>
      testId="audit-table"
      empty={empty}
      size="small"
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={pagination}
    />
  );
}
