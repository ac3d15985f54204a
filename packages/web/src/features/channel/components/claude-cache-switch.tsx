import { channelType } from '@gateway/shared';
import { Form, type FormInstance, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChannelFormValues } from '../channel-form-values';
import { useChannelSetting } from './channel-setting-field';

/**
 * Automatic prompt-cache breakpoints for an Anthropic channel (`claude_cache_breakpoints` in the `setting` JSON):
 * off by default because a cache write costs more than plain input; worth it for agents' long repeated prefixes.
 */
export function ClaudeCacheSwitch({ form, type }: { form: FormInstance<ChannelFormValues>; type: number }) {
  const { t } = useTranslation();
  const setting = useChannelSetting(form, 'claude_cache_breakpoints');
  if (channelType(type)?.adaptor !== 'claude') return null;
  return (
    <Form.Item label={t('upstream_protocol.claude_cache')} extra={t('upstream_protocol.claude_cache_help')}>
      <Switch
        checked={setting.value === true}
        disabled={!setting.ready}
        onChange={(on) => setting.set(on ? true : undefined)}
        data-testid="channel-claude-cache"
      />
    </Form.Item>
  );
}
