import { channelType } from '@gateway/shared';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChannelFormValues } from '../channel-form-values';
import { SettingSwitch } from './setting-switch';

/**
 * Automatic prompt-cache breakpoints for an Anthropic channel (`claude_cache_breakpoints` in the `setting` JSON):
 * off by default because a cache write costs more than plain input; worth it for agents' long repeated prefixes.
 */
export function ClaudeCacheSwitch({ form, type }: { form: FormInstance<ChannelFormValues>; type: number }) {
  const { t } = useTranslation();
  if (channelType(type)?.adaptor !== 'claude') return null;
  return (
    <SettingSwitch
      form={form}
      settingKey="claude_cache_breakpoints"
      label={t('upstream_protocol.claude_cache')}
      help={t('upstream_protocol.claude_cache_help')}
      testId="channel-claude-cache"
    />
  );
}
