import { ReloadOutlined, WalletOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Skeleton, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { useSelf } from '../../../hooks/use-self';
import { currentLanguage } from '../../../lib/i18n';

/** Current balance, what has been spent and how many requests were made, as the operator wants quota shown. */
export function BalanceCard() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const self = useSelf();
  const formatQuota = useFormatQuota();
  const user = self.data;
  const count = new Intl.NumberFormat(currentLanguage());

  return (
    <Card className="wallet-balance" data-testid="wallet-balance">
      <Flex justify="space-between" align="flex-start" gap={12}>
        <Flex align="center" gap={12} className="wallet-balance-main">
          <div
            className="wallet-balance-icon"
            aria-hidden
            style={{ color: token.colorPrimary, background: token.colorPrimaryBg }}
          >
            <WalletOutlined />
          </div>
          <div>
            <Typography.Text type="secondary">{t('wallet.balance')}</Typography.Text>
            {user ? (
              <div className="wallet-balance-value" data-testid="wallet-balance-value">
                {formatQuota(user.quota)}
              </div>
            ) : (
              <Skeleton.Input active size="large" className="wallet-balance-skeleton" />
            )}
          </div>
        </Flex>
        <Tooltip title={t('wallet.refresh')}>
          <Button
            type="text"
            icon={<ReloadOutlined />}
            aria-label={t('wallet.refresh')}
            loading={self.isFetching}
            onClick={() => void self.refetch()}
          />
        </Tooltip>
      </Flex>
      <div className="wallet-balance-facts">
        <div>
          <Typography.Text type="secondary">{t('wallet.used')}</Typography.Text>
          <div className="wallet-balance-fact">{user ? formatQuota(user.used_quota) : '—'}</div>
        </div>
        <div>
          <Typography.Text type="secondary">{t('wallet.requests')}</Typography.Text>
          <div className="wallet-balance-fact">{user ? count.format(user.request_count) : '—'}</div>
        </div>
      </div>
    </Card>
  );
}
