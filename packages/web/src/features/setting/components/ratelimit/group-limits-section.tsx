import { Alert } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../../option-form';
import type { FieldSpec } from '../kit/field-spec';
import { OptionSection } from '../kit/option-section';

/** `GroupLimitDefaults`: per-group default limits for users without their own, checked like the server does. */
export function GroupLimitsSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const fields = useMemo<FieldSpec[]>(
    () => [
      {
        key: 'GroupLimitDefaults',
        kind: 'json',
        label: t('limits.group_defaults'),
        help: t('limits.group_defaults_help'),
        placeholder: '{"default": {"rpm": 60, "tpm": 100000, "concurrency": 5}, "vip": {"rpm": 0}}',
        wide: true,
      },
    ],
    [t],
  );
  return (
    <OptionSection
      title={t('limits.group_title')}
      intro={<Alert type="info" showIcon title={t('limits.group_intro')} style={{ marginBottom: 16 }} />}
      fields={fields}
      options={options}
      testId="section-group-limits"
    />
  );
}
