import { Alert } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldSpec } from '../components/kit/field-spec';
import { OptionSection } from '../components/kit/option-section';
import { GroupFallbackSection } from '../components/ratelimit/group-fallback-section';
import { GroupLimitsSection } from '../components/ratelimit/group-limits-section';
import type { OptionMap } from '../option-form';

/** Model request rate limit per user (spec 001 §5 bounds; the server enforces the same). */
export function RateLimitTab({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const fields = useMemo<FieldSpec[]>(
    () => [
      { key: 'ModelRequestRateLimitEnabled', kind: 'switch', label: t('setting.rl.enabled') },
      {
        key: 'ModelRequestRateLimitDurationMinutes',
        kind: 'number',
        label: t('setting.rl.duration'),
        help: t('setting.rl.duration_help'),
        min: 0,
        precision: 0,
      },
      {
        key: 'ModelRequestRateLimitCount',
        kind: 'number',
        label: t('setting.rl.count'),
        help: t('setting.rl.count_help'),
        min: 0,
        precision: 0,
      },
      {
        key: 'ModelRequestRateLimitSuccessCount',
        kind: 'number',
        label: t('setting.rl.success_count'),
        help: t('setting.rl.success_count_help'),
        min: 1,
        precision: 0,
      },
      {
        key: 'ModelRequestRateLimitGroup',
        kind: 'json',
        label: t('setting.rl.group'),
        help: t('setting.rl.group_help'),
        placeholder: '{"default": [200, 100], "vip": [0, 1000]}',
        wide: true,
      },
    ],
    [t],
  );
  return (
    <>
      <OptionSection
        title={t('setting.rl.title')}
        intro={<Alert type="info" showIcon title={t('setting.rl.intro')} />}
        fields={fields}
        options={options}
        testId="section-ratelimit"
      />
      <GroupLimitsSection options={options} />
      <GroupFallbackSection options={options} />
    </>
  );
}
