import { channelType, RESPONSES_MODES, type ResponsesMode } from '@gateway/shared';
import { Form, type FormInstance, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChannelFormValues } from '../channel-form-values';
import { useChannelSetting } from './channel-setting-field';

/**
 * How `/v1/responses` reaches a channel whose type serves OpenAI's Responses API: natively, through chat
 * completions, or automatically (`responses_mode` in the `setting` JSON; auto is the default and is not written).
 * Shown only for those types: every other channel is always reached through chat.
 */
export function ResponsesModeSelect({ form, type }: { form: FormInstance<ChannelFormValues>; type: number }) {
  const { t } = useTranslation();
  const setting = useChannelSetting(form, 'responses_mode');
  if (!channelType(type)?.openAi?.responses) return null;
  const value: ResponsesMode = setting.value === 'native' || setting.value === 'chat' ? setting.value : 'auto';
  return (
    <Form.Item
      label={t('upstream_protocol.label')}
      htmlFor="channel-responses-mode"
      extra={t(`upstream_protocol.${value}_help`)}
    >
      <Select
        id="channel-responses-mode"
        value={value}
        disabled={!setting.ready}
        onChange={(mode: ResponsesMode) => setting.set(mode === 'auto' ? undefined : mode)}
        options={RESPONSES_MODES.map((mode) => ({ value: mode, label: t(`upstream_protocol.${mode}`) }))}
        data-testid="channel-responses-mode"
      />
    </Form.Item>
  );
}
