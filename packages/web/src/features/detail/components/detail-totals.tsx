import { ApiOutlined, DollarOutlined, FieldTimeOutlined, FireOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Card, Skeleton, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import type { Totals } from '../aggregate';

interface TotalItem {
  key: keyof Totals;
  labelKey: string;
  icon: ReactNode;
  tone: string;
}

const ITEMS: TotalItem[] = [
  { key: 'quota', labelKey: 'detail.total_quota', icon: <DollarOutlined />, tone: 'indigo' },
  { key: 'count', labelKey: 'detail.total_requests', icon: <ApiOutlined />, tone: 'sky' },
  { key: 'tokens', labelKey: 'detail.total_tokens', icon: <FireOutlined />, tone: 'amber' },
  { key: 'rpm', labelKey: 'detail.avg_rpm', icon: <FieldTimeOutlined />, tone: 'emerald' },
  { key: 'tpm', labelKey: 'detail.avg_tpm', icon: <ThunderboltOutlined />, tone: 'pink' },
];

/** Consumption, requests, tokens and the average RPM/TPM over the chosen range; skeletons until loaded. */
export function DetailTotals({ totals }: { totals: Totals | null }) {
  const { t, i18n } = useTranslation();
  const formatQuota = useFormatQuota();
  const show = (item: TotalItem, value: number) =>
    item.key === 'quota' ? formatQuota(value) : value.toLocaleString(i18n.language);

  return (
    <div className="detail-totals" data-testid="detail-totals">
      {ITEMS.map((item) => (
        <Card key={item.key} size="small" className="detail-total">
          {totals ? (
            <Statistic
              title={
                <span className={`detail-total-title detail-tone-${item.tone}`}>
                  {item.icon}
                  {t(item.labelKey)}
                </span>
              }
              value={show(item, totals[item.key])}
              data-testid={`detail-total-${item.key}`}
            />
          ) : (
            <Skeleton active title={false} paragraph={{ rows: 2 }} />
          )}
        </Card>
      ))}
    </div>
  );
}
