import { Card, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FallbackModelsSummary } from '../../../components/fallback/fallback-models-summary';
import { TokenLimitsSummary } from '../../../components/limits/token-limits-summary';
import { CardCheckbox } from '../../../components/list/card-checkbox';
import { CardList } from '../../../components/list/card-list';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { formatTime, KeyCell, statusTagOf, TokenActions, type TokenListProps, TokenStatusSwitch } from './token-table';

/** The token list on a phone: one card per token instead of a wide table. */
export function TokenCards({
  tokens,
  loading,
  pagination,
  selectedKeys,
  onSelect,
  onToggleStatus,
  togglingId,
  onCopy,
  onEdit,
  onDelete,
  empty,
}: TokenListProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const now = Date.now() / 1000;

  return (
    <CardList items={tokens} loading={loading} pagination={pagination} empty={empty} testId="token-table">
      {(token) => {
        const tag = statusTagOf(token);
        return (
          <Card key={token.id} size="small" className="list-card">
            <Flex justify="space-between" align="center" gap={8}>
              <CardCheckbox row={token} rows={tokens} selectedKeys={selectedKeys} onSelect={onSelect}>
                <Typography.Text strong>{token.name}</Typography.Text>
              </CardCheckbox>
              <Flex align="center" gap={6}>
                <Tag color={tag.color} variant="filled" style={{ marginInlineEnd: 0 }}>
                  {t(tag.labelKey)}
                </Tag>
                <TokenStatusSwitch token={token} togglingId={togglingId} onToggle={onToggleStatus} />
              </Flex>
            </Flex>
            <KeyCell tokenKey={token.key} onCopy={() => onCopy(token)} />
            <dl className="list-card-facts">
              <dt>{t('token.col_quota')}</dt>
              <dd>
                {t('token.quota_used', { value: formatQuota(token.used_quota) })} ·{' '}
                {token.unlimited_quota
                  ? t('token.quota_unlimited')
                  : t('token.quota_remaining', { value: formatQuota(token.remain_quota) })}
              </dd>
              <dt>{t('limits.col')}</dt>
              <dd>
                <TokenLimitsSummary token={token} />
              </dd>
              <dt>{t('fallback.col')}</dt>
              <dd>
                <FallbackModelsSummary models={token.fallback_models} />
              </dd>
              <dt>{t('token.col_group')}</dt>
              <dd>{token.group || t('token.group_own_short')}</dd>
              <dt>{t('token.col_expiry')}</dt>
              <dd>
                {token.expired_time === -1 ? (
                  t('token.expiry_never')
                ) : (
                  <Typography.Text type={token.expired_time < now ? 'danger' : undefined}>
                    {formatTime(token.expired_time)}
                  </Typography.Text>
                )}
              </dd>
            </dl>
            <Flex gap={6} justify="flex-end" wrap>
              <TokenActions token={token} labelled onEdit={onEdit} onDelete={onDelete} />
            </Flex>
          </Card>
        );
      }}
    </CardList>
  );
}
