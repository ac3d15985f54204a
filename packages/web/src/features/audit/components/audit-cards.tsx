import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CardList } from '../../../components/list/card-list';
import type { AuditItem } from '../types';
import { ActionTag, ActorText, TargetText, TimeText } from './audit-cells';
import { AuditDiff } from './audit-diff';
import type { AuditListProps } from './audit-table';

/** The audit trail on a phone: one card per change. */
export function AuditCards({ rows, loading, pagination, empty }: AuditListProps) {
  const { t } = useTranslation();
  return (
    <CardList<AuditItem> items={rows} loading={loading} pagination={pagination} empty={empty} testId="audit-table">
      {(row) => (
        <Card key={row.id} size="small" className="list-card list-card-tagged">
          <Flex justify="space-between" align="center" gap={8} wrap>
            <ActionTag action={row.action} />
            <Typography.Text type="secondary">
              <TimeText row={row} />
            </Typography.Text>
          </Flex>
          <dl className="list-card-facts">
            <dt>{t('audit.col_actor')}</dt>
            <dd>
              <ActorText row={row} />
            </dd>
            <dt>{t('audit.col_target')}</dt>
            <dd>
              <TargetText row={row} />
            </dd>
            <dt>{t('audit.col_ip')}</dt>
            <dd>{row.ip}</dd>
          </dl>
          <AuditDiff changes={row.diff} />
        </Card>
      )}
    </CardList>
  );
}
