import { PASSKEY_ATTACHMENT, PASSKEY_USER_VERIFICATION } from '@gateway/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../../option-form';
import type { FieldSpec } from '../kit/field-spec';
import { OptionSection } from '../kit/option-section';

/** System settings → Passkeys: the family's passkey.* options. */
export function PasskeySettingsSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const fields = useMemo<FieldSpec[]>(
    () => [
      { key: 'passkey.enabled', kind: 'switch', label: t('passkey.setting_enabled') },
      {
        key: 'passkey.rp_display_name',
        kind: 'text',
        label: t('passkey.setting_display_name'),
        help: t('passkey.setting_display_name_help'),
      },
      { key: 'passkey.rp_id', kind: 'text', label: t('passkey.setting_rp_id'), help: t('passkey.setting_rp_id_help') },
      {
        key: 'passkey.origins',
        kind: 'text',
        label: t('passkey.setting_origins'),
        help: t('passkey.setting_origins_help'),
        placeholder: 'https://gateway.example.com',
        wide: true,
      },
      {
        key: 'passkey.allow_insecure_origin',
        kind: 'switch',
        label: t('passkey.setting_insecure'),
        help: t('passkey.setting_insecure_help'),
      },
      {
        key: 'passkey.user_verification',
        kind: 'select',
        label: t('passkey.setting_user_verification'),
        options: PASSKEY_USER_VERIFICATION.map((value) => ({ value, label: t(`passkey.uv_${value}`) })),
      },
      {
        key: 'passkey.attachment_preference',
        kind: 'select',
        label: t('passkey.setting_attachment'),
        options: PASSKEY_ATTACHMENT.map((value) => ({ value, label: t(`passkey.attachment_${value || 'any'}`) })),
      },
    ],
    [t],
  );
  return (
    <OptionSection title={t('passkey.setting_title')} fields={fields} options={options} testId="section-passkey" />
  );
}
