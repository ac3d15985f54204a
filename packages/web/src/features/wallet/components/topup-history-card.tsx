import { HistoryOutlined } from '@ant-design/icons';
import { Alert, Card, Flex, Table, type TableColumnsType, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { quotaDisplayFrom } from '../../../lib/quota';
import { useTopUpHistory } from '../api/use-topup-history';
import type { TopUpRecord } from '../types';

const STATUS: Record<string, { color: string; labelKey: string }> = {
  pending: { color: 'orange', labelKey: 'wallet.status_pending' },
  success: { color: 'green', labelKey: 'wallet.status_success' },
  failed: { color: 'red', labelKey: 'wallet.status_failed' },
  expired: { color: 'default', labelKey: 'wallet.status_expired' },
};

const METHOD_KEYS: Record<string, string> = {
  alipay: 'wallet.method_zfb',
  zfb: 'wallet.method_zfb',
  wxpay: 'wallet.method_wx',
  wx: 'wallet.method_wx',
  redemption: 'wallet.method_redemption',
  stripe: 'wallet.method_stripe',
  creem: 'wallet.method_creem',
};

/** Who took the payment, for rows whose method does not already say it (epay's Alipay and WeChat Pay). */
const PROVIDER_KEYS: Record<string, string> = { epay: 'wallet.provider_epay' };

const PAGE_SIZE = 5;

/** The user's own top-ups: online orders in every state (a pending one is an unfinished payment) and codes. */
export function TopUpHistoryCard() {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(usePublicStatus());
  const [page, setPage] = useState(1);
  const history = useTopUpHistory(page, PAGE_SIZE);

  // Codes and Creem packs store the quota they add; epay and Stripe orders store units of credit.
  const storesQuota = (record: TopUpRecord) =>
    record.payment_method === 'redemption' || record.payment_provider === 'creem';
  const credit = (record: TopUpRecord) =>
    formatQuota(storesQuota(record) ? record.amount : record.amount * quotaPerUnit);

  const columns: TableColumnsType<TopUpRecord> = [
    {
      title: t('wallet.col_time'),
      dataIndex: 'create_time',
      render: (time: number) => dayjs.unix(time).format('YYYY-MM-DD HH:mm'),
    },
    { title: t('wallet.credit'), key: 'credit', align: 'right', render: (_, record) => credit(record) },
    {
      title: t('wallet.col_money'),
      dataIndex: 'money',
      align: 'right',
      render: (money: number, record) => {
        if (record.payment_method === 'redemption') return '—';
        // Epay charges yuan, Stripe the configured price's currency (dollars as the family shows it); a Creem pack
        // its own currency, which the order does not keep, so the bare figure.
        if (record.payment_provider === 'creem') return money.toFixed(2);
        const key = record.payment_provider === 'stripe' ? 'money_card' : 'money';
        return t(`wallet.${key}`, { money: money.toFixed(2) });
      },
    },
    {
      title: t('wallet.method'),
      dataIndex: 'payment_method',
      render: (method: string, record) => (
        <Flex vertical gap={0}>
          <span>{METHOD_KEYS[method] ? t(METHOD_KEYS[method]) : method}</span>
          {PROVIDER_KEYS[record.payment_provider] && (
            <Typography.Text type="secondary" className="wallet-history-provider">
              {t(PROVIDER_KEYS[record.payment_provider])}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: t('wallet.col_status'),
      dataIndex: 'status',
      render: (status: string) => {
        const info = STATUS[status];
        return (
          <Tag color={info?.color ?? 'default'} data-testid={`wallet-history-status-${status}`}>
            {info ? t(info.labelKey) : status}
          </Tag>
        );
      },
    },
  ];

  return (
    <Card
      className="wallet-card"
      title={
        <Flex align="center" gap={8}>
          <HistoryOutlined />
          {t('wallet.history_title')}
        </Flex>
      }
    >
      {history.isError && !history.data ? (
        <Alert type="error" showIcon title={(history.error as Error).message} />
      ) : (
        <Table<TopUpRecord>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={history.data?.items ?? []}
          loading={history.isPending}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('wallet.history_empty') }}
          data-testid="wallet-history"
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: history.data?.total ?? 0,
            onChange: setPage,
            hideOnSinglePage: true,
            size: 'small',
          }}
        />
      )}
    </Card>
  );
}
