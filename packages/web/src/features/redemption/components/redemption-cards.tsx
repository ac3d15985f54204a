import { Card, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CardCheckbox } from '../../../components/list/card-checkbox';
import { CardList } from '../../../components/list/card-list';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { ExpiryText, formatTime, KeyCell, RedeemedBy, RedemptionActions, StatusTag } from './redemption-cells';
import type { RedemptionListProps } from './redemption-table';

/** The code list on a phone: one card per code instead of a wide table. */
export function RedemptionCards({
  codes,
  loading,
  pagination,
  selectedKeys,
  onSelect,
  empty,
  ...handlers
}: RedemptionListProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();

  return (
    <CardList items={codes} loading={loading} pagination={pagination} empty={empty} testId="redemption-table">
      {(code) => (
        <Card key={code.id} size="small" className="list-card">
          <Flex justify="space-between" align="center" gap={8}>
            <CardCheckbox row={code} rows={codes} selectedKeys={selectedKeys} onSelect={onSelect}>
              <Typography.Text strong>{code.name}</Typography.Text>
              <Typography.Text type="secondary"> #{code.id}</Typography.Text>
            </CardCheckbox>
            <StatusTag code={code} />
          </Flex>
          <KeyCell codeKey={code.key} onCopy={() => handlers.onCopy(code)} />
          <dl className="list-card-facts">
            <dt>{t('redemption.col_quota')}</dt>
            <dd>{formatQuota(code.quota)}</dd>
            <dt>{t('redemption.col_created')}</dt>
            <dd>{formatTime(code.created_time)}</dd>
            <dt>{t('redemption.col_redeemed')}</dt>
            <dd>
              <RedeemedBy code={code} />
            </dd>
            <dt>{t('redemption.col_expiry')}</dt>
            <dd>
              <ExpiryText seconds={code.expired_time} />
            </dd>
          </dl>
          <Flex justify="flex-end">
            <RedemptionActions code={code} labelled {...handlers} />
          </Flex>
        </Card>
      )}
    </CardList>
  );
}
