import { Form, type FormInstance, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChannelFormValues } from '../channel-form-values';
import { useChannelSetting } from './channel-setting-field';

/** The channel's "keep requests and responses" switch: `log_bodies` inside the `setting` JSON. */
export function LogBodiesSwitch({ form }: { form: FormInstance<ChannelFormValues> }) {
  const { t } = useTranslation();
  const setting = useChannelSetting(form, 'log_bodies');
  return (
    <Form.Item label={t('log_bodies.channel_switch')} extra={t('log_bodies.channel_switch_help')}>
      <Switch
        checked={setting.value === true}
        disabled={!setting.ready}
        onChange={(on) => setting.set(on ? true : undefined)}
        data-testid="channel-log-bodies"
      />
    </Form.Item>
  );
}
