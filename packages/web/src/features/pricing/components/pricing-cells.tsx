import { CheckCircleFilled, CheckOutlined, CloseCircleOutlined, CopyOutlined } from '@ant-design/icons';
import { formatPriceAmount, type PriceUnit, QuotaType } from '@gateway/shared';
import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { VendorIcon } from '../../../components/vendor-icon/vendor-icon';
import type { PricingRow } from '../pricing-view';

export function AvailabilityMark({ available }: { available: boolean }) {
  const { t } = useTranslation();
  const label = available ? t('pricing.available') : t('pricing.unavailable');
  return (
    <Tooltip title={label}>
      <span role="img" aria-label={label} className={available ? 'pricing-available' : 'pricing-unavailable'}>
        {available ? <CheckCircleFilled /> : <CloseCircleOutlined />}
      </span>
    </Tooltip>
  );
}

/**
 * The model name as a button: one click copies it (spec 001 "Pricing"); with the catalogue's vendor icon (the
 * model's own icon first) and description when it has them.
 */
export function ModelName({ row, onCopy }: { row: PricingRow; onCopy: (name: string) => void }) {
  const { t } = useTranslation();
  const name = row.model_name;
  const icon = row.icon || row.vendor?.icon || '';
  return (
    <span className="pricing-model">
      {(icon || row.vendor) && <VendorIcon icon={icon} label={row.vendor?.name ?? name} size={20} />}
      <span className="pricing-model-text">
        <Tooltip title={t('pricing.click_to_copy')}>
          <button type="button" className="pricing-model-name" onClick={() => onCopy(name)}>
            <span className="mono-text">{name}</span>
            <CopyOutlined className="pricing-copy-icon" />
          </button>
        </Tooltip>
        {row.description && (
          <Typography.Text
            type="secondary"
            className="pricing-model-description"
            ellipsis={{ tooltip: row.description }}
          >
            {row.description}
          </Typography.Text>
        )}
      </span>
    </span>
  );
}

export function BillingTag({ row }: { row: PricingRow }) {
  const { t } = useTranslation();
  return row.quota_type === QuotaType.PerCall ? (
    <Tag color="purple">{t('pricing.billing_call')}</Tag>
  ) : (
    <Tag color="blue">{t('pricing.billing_tokens')}</Tag>
  );
}

interface GroupTagsProps {
  groups: string[];
  viewed: string;
  onSwitch: (group: string) => void;
}

/** The caller's usable groups that serve the model; clicking one views the prices of that group. */
export function GroupTags({ groups, viewed, onSwitch }: GroupTagsProps) {
  const { t } = useTranslation();
  if (groups.length === 0) return <Typography.Text type="secondary">{t('pricing.no_groups')}</Typography.Text>;
  return (
    <span className="pricing-groups">
      {groups.map((group) =>
        group === viewed ? (
          <Tag key={group} color="blue" icon={<CheckOutlined />} className="pricing-group-tag">
            {group}
          </Tag>
        ) : (
          <Tooltip key={group} title={t('pricing.switch_group', { group })}>
            <Tag
              className="pricing-group-tag pricing-group-switch"
              role="button"
              tabIndex={0}
              onClick={() => onSwitch(group)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  onSwitch(group);
                }
              }}
            >
              {group}
            </Tag>
          </Tooltip>
        ),
      )}
    </span>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="pricing-fact">
      <Typography.Text type="secondary">{label}</Typography.Text>
      <span className="pricing-fact-value">{value}</span>
    </div>
  );
}

export function RatioLines({ row, groupRatio }: { row: PricingRow; groupRatio: number }) {
  const { t } = useTranslation();
  const perCall = row.quota_type === QuotaType.PerCall;
  return (
    <div className="pricing-facts">
      <Fact label={t('pricing.ratio_model')} value={perCall ? t('pricing.ratio_none') : String(row.model_ratio)} />
      {!perCall && <Fact label={t('pricing.ratio_completion')} value={String(row.completion_ratio)} />}
      {!perCall && row.cache_ratio !== 1 && <Fact label={t('pricing.ratio_cache')} value={String(row.cache_ratio)} />}
      <Fact label={t('pricing.ratio_group')} value={String(groupRatio)} />
    </div>
  );
}

function useAmount() {
  const { t } = useTranslation();
  return (value: number, unit: PriceUnit) =>
    unit === 'usd'
      ? formatPriceAmount(value, unit)
      : t('pricing.quota_amount', { amount: formatPriceAmount(value, unit) });
}

/** Prices for the viewed group (spec 001 §9), in dollars or quota as the operator displays money. */
export function PriceLines({ row }: { row: PricingRow }) {
  const { t } = useTranslation();
  const amount = useAmount();
  const { price } = row;
  if (price.kind === 'call') {
    return (
      <div className="pricing-facts" data-testid={`price-${row.model_name}`}>
        <div className="pricing-fact">
          <Typography.Text type="secondary">{t('pricing.price_per_call')}</Typography.Text>
          <span className="pricing-price">
            {amount(price.perCall, price.unit)}{' '}
            <Typography.Text type="secondary">{t('pricing.per_call')}</Typography.Text>
          </span>
        </div>
      </div>
    );
  }
  const line = (label: string, value: number) => (
    <div className="pricing-fact">
      <Typography.Text type="secondary">{label}</Typography.Text>
      <span className="pricing-price">
        {amount(value, price.unit)} <Typography.Text type="secondary">{t('pricing.per_million')}</Typography.Text>
      </span>
    </div>
  );
  return (
    <div className="pricing-facts" data-testid={`price-${row.model_name}`}>
      {line(t('pricing.price_input'), price.input)}
      {line(t('pricing.price_output'), price.output)}
      {row.cache_ratio !== 1 && line(t('pricing.price_cached'), price.cachedInput)}
    </div>
  );
}
