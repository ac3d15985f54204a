import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldSpec } from '../components/kit/field-spec';
import { OptionSection } from '../components/kit/option-section';
import type { FormValue, OptionMap } from '../option-form';

const pingOff = (values: Record<string, FormValue>) => !values['general_setting.ping_interval_enabled'];
const affinityOff = (values: Record<string, FormValue>) => !values['channel_affinity_setting.enabled'];

/** Provider-specific model settings (Gemini, Claude) and global relay behaviour. */
export function ModelsTab({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const sections = useMemo(() => {
    const percentage = (key: string): FieldSpec => ({
      key,
      kind: 'number',
      label: t('setting.models.thinking_percentage'),
      help: t('setting.models.thinking_percentage_help'),
      min: 0.1,
      max: 1,
      step: 0.1,
    });
    const gemini: FieldSpec[] = [
      {
        key: 'gemini.safety_settings',
        kind: 'json',
        label: t('setting.models.gemini_safety'),
        help: t('setting.models.gemini_safety_help'),
        placeholder: '{"default": "OFF"}',
        wide: true,
      },
      {
        key: 'gemini.version_settings',
        kind: 'json',
        label: t('setting.models.gemini_version'),
        help: t('setting.models.gemini_version_help'),
        placeholder: '{"default": "v1beta"}',
        wide: true,
      },
      {
        key: 'gemini.supported_imagine_models',
        kind: 'json',
        label: t('setting.models.gemini_imagine'),
        help: t('setting.models.gemini_imagine_help'),
        wide: true,
      },
      { key: 'gemini.thinking_adapter_enabled', kind: 'switch', label: t('setting.models.thinking_adapter') },
      percentage('gemini.thinking_adapter_budget_tokens_percentage'),
    ];
    const claude: FieldSpec[] = [
      {
        key: 'claude.model_headers_settings',
        kind: 'json',
        label: t('setting.models.claude_headers'),
        help: t('setting.models.claude_headers_help'),
        placeholder: '{"claude-3-7-sonnet-20250219": {"anthropic-beta": ["output-128k-2025-02-19"]}}',
        wide: true,
      },
      {
        key: 'claude.default_max_tokens',
        kind: 'json',
        label: t('setting.models.claude_max_tokens'),
        help: t('setting.models.claude_max_tokens_help'),
        wide: true,
      },
      { key: 'claude.thinking_adapter_enabled', kind: 'switch', label: t('setting.models.thinking_adapter') },
      percentage('claude.thinking_adapter_budget_tokens_percentage'),
      {
        key: 'claude.strip_billing_header_enabled',
        kind: 'switch',
        label: t('setting.models.billing_header'),
        help: t('setting.models.billing_header_help'),
      },
    ];
    const affinity: FieldSpec[] = [
      {
        key: 'channel_affinity_setting.enabled',
        kind: 'switch',
        label: t('setting.models.affinity_enabled'),
        help: t('setting.models.affinity_enabled_help'),
        wide: true,
      },
      {
        key: 'channel_affinity_setting.default_ttl_seconds',
        kind: 'number',
        label: t('setting.models.affinity_ttl'),
        help: t('setting.models.affinity_ttl_help'),
        min: 1,
        max: 604800,
        precision: 0,
        disabledWhen: affinityOff,
      },
      {
        key: 'channel_affinity_setting.max_entries',
        kind: 'number',
        label: t('setting.models.affinity_max_entries'),
        min: 1,
        max: 1000000,
        precision: 0,
        disabledWhen: affinityOff,
      },
    ];
    const global: FieldSpec[] = [
      {
        key: 'global.pass_through_request_enabled',
        kind: 'switch',
        label: t('setting.models.pass_through'),
        help: t('setting.models.pass_through_help'),
      },
      {
        key: 'global.chat_completions_to_responses_policy',
        kind: 'json',
        label: t('setting.models.responses_policy'),
        help: t('setting.models.responses_policy_help'),
        placeholder: '{"enabled": true, "channel_ids": [1], "model_patterns": ["^o1-pro$"]}',
        wide: true,
      },
      { key: 'general_setting.ping_interval_enabled', kind: 'switch', label: t('setting.models.ping_enabled') },
      {
        key: 'general_setting.ping_interval_seconds',
        kind: 'number',
        label: t('setting.models.ping_seconds'),
        help: t('setting.models.ping_seconds_help'),
        min: 1,
        precision: 0,
        disabledWhen: pingOff,
      },
    ];
    return { gemini, claude, affinity, global };
  }, [t]);

  return (
    <>
      <OptionSection
        title={t('setting.models.gemini')}
        fields={sections.gemini}
        options={options}
        testId="section-gemini"
      />
      <OptionSection
        title={t('setting.models.claude')}
        fields={sections.claude}
        options={options}
        testId="section-claude"
      />
      <OptionSection
        title={t('setting.models.affinity')}
        fields={sections.affinity}
        options={options}
        testId="section-affinity"
      />
      <OptionSection
        title={t('setting.models.global')}
        fields={sections.global}
        options={options}
        testId="section-global"
      />
    </>
  );
}
