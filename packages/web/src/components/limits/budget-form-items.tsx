import { BUDGET_PERIODS } from '@gateway/shared';
import { Col, Form, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../hooks/use-format-quota';
import { wholeNumberRule } from '../form/preset-field';

/** A token's period budget: the period (none, day, week, month) and, with one, the amount in quota. */
export function BudgetFormItems() {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const form = Form.useFormInstance();
  const period = Form.useWatch<string | undefined>('budget_period', form);
  const quota = Form.useWatch<number | null | undefined>('budget_quota', form);
  const options = [
    { value: '', label: t('limits.budget_none') },
    ...BUDGET_PERIODS.map((value) => ({ value, label: t(`limits.period_${value}`) })),
  ];
  return (
    <Row gutter={12}>
      <Col xs={24} sm={10}>
        <Form.Item name="budget_period" label={t('limits.budget_period')} extra={t('limits.budget_period_help')}>
          <Select options={options} aria-label={t('limits.budget_period')} />
        </Form.Item>
      </Col>
      {period ? (
        <Col xs={24} sm={14}>
          <Form.Item
            name="budget_quota"
            label={t('limits.budget_quota')}
            extra={t('limits.budget_quota_equals', { value: formatQuota(quota ?? 0) })}
            rules={[wholeNumberRule(t('errors:budget_quota_required'), 1)]}
          >
            <InputNumber min={1} precision={0} style={{ width: '100%' }} aria-label={t('limits.budget_quota')} />
          </Form.Item>
        </Col>
      ) : null}
    </Row>
  );
}
