import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChannelFormValues } from '../channel-form-values';
import { SettingSwitch } from './setting-switch';

/** The channel's "keep requests and responses" switch: `log_bodies` inside the `setting` JSON. */
export function LogBodiesSwitch({ form }: { form: FormInstance<ChannelFormValues> }) {
  const { t } = useTranslation();
  return (
    <SettingSwitch
      form={form}
      settingKey="log_bodies"
      label={t('log_bodies.channel_switch')}
      help={t('log_bodies.channel_switch_help')}
      testId="channel-log-bodies"
    />
  );
}
