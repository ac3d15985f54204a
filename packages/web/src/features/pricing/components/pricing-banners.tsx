import { CalculatorOutlined, InfoCircleOutlined, TeamOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Flex, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { groupDescription } from '../pricing-view';

interface GroupBannerProps {
  signedIn: boolean;
  /** The signed-in user's own group (or "default" for a visitor). */
  userGroup: string;
  viewed: string;
  groupRatio: Record<string, number>;
  usableGroup: Record<string, string>;
  onSwitch: (group: string) => void;
}

/** Whose prices these are: the user's group and ratio, or a warning that a visitor sees the default group's. */
export function GroupBanner({ signedIn, userGroup, viewed, groupRatio, usableGroup, onSwitch }: GroupBannerProps) {
  const { t } = useTranslation();
  const describe = (group: string) => {
    const text = groupDescription(group, usableGroup[group], t);
    return text === group ? group : `${text} (${group})`;
  };
  const ratioOf = (group: string) => groupRatio[group] ?? 1;
  const groups = Object.keys(groupRatio);
  const message = signedIn ? (
    <span data-testid="pricing-group-banner">
      {t('pricing.banner_group', { group: userGroup, ratio: ratioOf(userGroup) })}
      {viewed !== userGroup && (
        <Typography.Text type="secondary">
          {' · '}
          {t('pricing.banner_viewing', { group: viewed, ratio: ratioOf(viewed) })}
        </Typography.Text>
      )}
    </span>
  ) : (
    <span data-testid="pricing-guest-warning">
      {t('pricing.not_logged_in')} <Link to="/login">{t('pricing.login')}</Link>
    </span>
  );
  return (
    <Alert
      type={signedIn ? 'success' : 'warning'}
      showIcon
      icon={signedIn ? <TeamOutlined /> : <WarningOutlined />}
      title={
        <Flex gap={12} wrap align="center" justify="space-between">
          {message}
          {groups.length > 1 && (
            <Flex gap={8} align="center" className="pricing-group-select">
              <Typography.Text type="secondary">{t('pricing.viewing_group')}</Typography.Text>
              <Select
                size="small"
                value={viewed}
                onChange={onSwitch}
                aria-label={t('pricing.viewing_group')}
                popupMatchSelectWidth={false}
                options={groups.map((group) => ({
                  value: group,
                  label: `${describe(group)} × ${ratioOf(group)}`,
                }))}
              />
            </Flex>
          )}
        </Flex>
      }
    />
  );
}

/** The pay-as-you-go and per-call formulas (spec 001 §9), with the operator's quota per dollar. */
export function FormulaBanner({ quotaPerUnit }: { quotaPerUnit: number }) {
  const { t } = useTranslation();
  return (
    <Alert
      type="info"
      showIcon
      icon={<CalculatorOutlined />}
      data-testid="pricing-formula"
      title={
        <Flex vertical gap={2}>
          <span>{t('pricing.formula_tokens', { quotaPerUnit })}</span>
          <Typography.Text type="secondary">{t('pricing.formula_call')}</Typography.Text>
        </Flex>
      }
    />
  );
}

/** A small picture of how a ratio becomes a price, in place of the family's explanatory image. */
export function RatioExplainer() {
  const { t } = useTranslation();
  return (
    <section className="pricing-explainer" aria-label={t('pricing.explain_title')}>
      <Typography.Text strong className="pricing-explainer-title">
        <InfoCircleOutlined /> {t('pricing.explain_title')}
      </Typography.Text>
      <div className="pricing-explainer-steps">
        <div className="pricing-explainer-step">
          <span className="mono-text">{t('pricing.explain_input')}</span>
          <span className="pricing-explainer-arrow">→</span>
          <strong>{t('pricing.explain_input_result')}</strong>
        </div>
        <div className="pricing-explainer-step">
          <span className="mono-text">{t('pricing.explain_output')}</span>
          <span className="pricing-explainer-arrow">→</span>
          <strong>{t('pricing.explain_output_result')}</strong>
        </div>
      </div>
      <Typography.Text type="secondary" className="pricing-explainer-example">
        {t('pricing.explain_example')}
      </Typography.Text>
    </section>
  );
}
