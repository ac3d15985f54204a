import { parseJsonObjectField } from '@gateway/shared';
import { Form, type FormInstance } from 'antd';
import type { ChannelFormValues } from '../channel-form-values';

/**
 * One key of the channel's `setting` JSON (what the server reads), edited by a control of its own: the control and
 * the JSON field always agree, and while that JSON is broken the control waits (`ready` is false).
 */
export function useChannelSetting(form: FormInstance<ChannelFormValues>, key: string) {
  const text: string = Form.useWatch('setting', form) ?? '';
  const parsed = parseJsonObjectField(text);
  const set = (value: unknown) => {
    if (!parsed.ok) return;
    const { [key]: _previous, ...rest } = parsed.value ?? {};
    const next = value === undefined ? rest : { ...rest, [key]: value };
    const json = Object.keys(next).length > 0 ? JSON.stringify(next, null, 2) : '';
    form.setFields([{ name: 'setting', value: json, errors: [] }]);
  };
  return { ready: parsed.ok, value: parsed.ok ? parsed.value?.[key] : undefined, set };
}
