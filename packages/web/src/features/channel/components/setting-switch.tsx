import { Form, type FormInstance, Switch } from 'antd';
import type { ChannelFormValues } from '../channel-form-values';
import { useChannelSetting } from './channel-setting-field';

interface SettingSwitchProps {
  form: FormInstance<ChannelFormValues>;
  /** The key in the `setting` JSON: true when on, absent when off. */
  settingKey: string;
  label: string;
  help: string;
  testId: string;
}

/** A switch for one boolean of the channel's `setting` JSON. */
export function SettingSwitch({ form, settingKey, label, help, testId }: SettingSwitchProps) {
  const setting = useChannelSetting(form, settingKey);
  return (
    <Form.Item label={label} extra={help}>
      <Switch
        checked={setting.value === true}
        disabled={!setting.ready}
        onChange={(on) => setting.set(on ? true : undefined)}
        data-testid={testId}
      />
    </Form.Item>
  );
}
