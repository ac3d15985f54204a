import { Alert } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../../option-form';
import type { FieldSpec } from '../kit/field-spec';
import { OptionSection } from '../kit/option-section';

/** `GroupFallbackModels` and `FallbackStatusCodes`, checked like the server does. */
export function GroupFallbackSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const fields = useMemo<FieldSpec[]>(
    () => [
      {
        key: 'GroupFallbackModels',
        kind: 'json',
        label: t('fallback.group_models'),
        help: t('fallback.group_models_help'),
        placeholder: '{"default": ["gpt-4o-mini"], "vip": ["claude-3-5-haiku-20241022", "gpt-4o-mini"]}',
        wide: true,
      },
      {
        key: 'FallbackStatusCodes',
        kind: 'text',
        label: t('fallback.status_codes'),
        help: t('fallback.status_codes_help'),
        placeholder: '429,500-599',
      },
    ],
    [t],
  );
  return (
    <OptionSection
      title={t('fallback.group_title')}
      intro={<Alert type="info" showIcon title={t('fallback.group_intro')} style={{ marginBottom: 16 }} />}
      fields={fields}
      options={options}
      testId="section-group-fallback"
    />
  );
}
