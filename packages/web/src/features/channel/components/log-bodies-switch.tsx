import { parseJsonObjectField } from '@gateway/shared';
import { Form, type FormInstance, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChannelFormValues } from '../channel-form-values';

/**
 * The channel's "keep requests and responses" switch. It edits `log_bodies` inside the `setting` JSON (what the
 * server reads), so the switch and the JSON field always agree; while that JSON is broken the switch waits.
 */
export function LogBodiesSwitch({ form }: { form: FormInstance<ChannelFormValues> }) {
  const { t } = useTranslation();
  const text: string = Form.useWatch('setting', form) ?? '';
  const parsed = parseJsonObjectField(text);
  const checked = parsed.ok && parsed.value?.log_bodies === true;

  const toggle = (on: boolean) => {
    if (!parsed.ok) return;
    const { log_bodies: _previous, ...rest } = parsed.value ?? {};
    const next = on ? { ...rest, log_bodies: true } : rest;
    const value = Object.keys(next).length > 0 ? JSON.stringify(next, null, 2) : '';
    form.setFields([{ name: 'setting', value, errors: [] }]);
  };

  return (
    <Form.Item label={t('log_bodies.channel_switch')} extra={t('log_bodies.channel_switch_help')}>
      <Switch checked={checked} disabled={!parsed.ok} onChange={toggle} data-testid="channel-log-bodies" />
    </Form.Item>
  );
}
