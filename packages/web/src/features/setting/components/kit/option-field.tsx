import { validateOption } from '@gateway/shared';
import { App, Col, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type FormValue, tightenCjk, toOptionString } from '../../option-form';
import type { FieldSpec } from './field-spec';

/** A switch that asks before turning off (spec 000 §4: password login); cancelling leaves it as it was. */
function ConfirmSwitch({
  value,
  onChange,
  confirmOff,
  disabled,
  id,
}: {
  value?: boolean;
  onChange?: (next: boolean) => void;
  confirmOff: NonNullable<FieldSpec['confirmOff']>;
  disabled?: boolean;
  id?: string;
}) {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  const change = (next: boolean) => {
    if (next) return onChange?.(true);
    void modal.confirm({
      title: confirmOff.title,
      content: confirmOff.content,
      okText: t('setting.confirm_turn_off'),
      okButtonProps: { danger: true },
      cancelText: t('ui.cancel'),
      onOk: () => onChange?.(false),
    });
  };
  return <Switch id={id} checked={Boolean(value)} onChange={change} disabled={disabled} />;
}

function inputFor(field: FieldSpec, disabled: boolean, secretHint: string): ReactNode {
  if (field.input) return field.input;
  switch (field.kind) {
    case 'switch':
      return field.confirmOff ? (
        <ConfirmSwitch confirmOff={field.confirmOff} disabled={disabled} />
      ) : (
        <Switch disabled={disabled} />
      );
    case 'number':
      return (
        <InputNumber
          min={field.min}
          max={field.max}
          step={field.step}
          precision={field.precision}
          disabled={disabled}
          placeholder={field.placeholder}
          style={{ width: '100%' }}
        />
      );
    case 'textarea':
    case 'json':
      return (
        <Input.TextArea
          autoSize={{ minRows: field.rows ?? 4, maxRows: 20 }}
          className={field.kind === 'json' ? 'setting-code' : undefined}
          spellCheck={field.kind !== 'json'}
          disabled={disabled}
          placeholder={field.placeholder}
        />
      );
    case 'select':
      return <Select options={field.options} disabled={disabled} placeholder={field.placeholder} />;
    case 'secret':
      return (
        <Input.Password
          autoComplete="new-password"
          disabled={disabled}
          placeholder={field.placeholder ?? secretHint}
          visibilityToggle
        />
      );
    default:
      return <Input disabled={disabled} placeholder={field.placeholder} autoComplete="off" />;
  }
}

/** One option as a form item, checked with the same rules the server applies. */
export function OptionField({ field, disabled = false }: { field: FieldSpec; disabled?: boolean }) {
  const { t } = useTranslation();
  const rules = [
    {
      validator: (_: unknown, value: FormValue) => {
        const text = toOptionString(field.kind, field.key, value);
        if (field.kind === 'secret' && text === '') return Promise.resolve();
        const error = validateOption(field.key, text);
        if (!error) return Promise.resolve();
        // The server names the option by its key; the form can name it the way the admin reads it.
        const name = typeof field.label === 'string' ? field.label : field.key;
        return Promise.reject(new Error(tightenCjk(t(`errors:${error.code}`, { ...error.params, key: name }))));
      },
    },
  ];
  const item = (
    <Form.Item
      name={field.key}
      label={field.label}
      extra={field.kind === 'secret' ? (field.help ?? t('setting.secret_keep')) : field.help}
      valuePropName={field.kind === 'switch' && !field.input && !field.confirmOff ? 'checked' : 'value'}
      rules={rules}
      noStyle={Boolean(field.addon)}
      // On a phone a bare switch sits on its label's line instead of below it (see setting.css).
      className={field.kind === 'switch' && !field.help ? 'setting-switch-item' : undefined}
    >
      {inputFor(field, disabled, t('setting.secret_placeholder'))}
    </Form.Item>
  );
  // One two-column grid for every kind, so a switch and a number share a row evenly.
  const span = field.wide ? { xs: 24 } : field.kind === 'switch' ? { xs: 24, sm: 12 } : { xs: 24, md: 12 };
  return (
    <Col {...span}>
      {field.addon ? (
        <Form.Item label={field.label} extra={field.help} required={false}>
          <Space.Compact style={{ width: '100%' }}>
            {item}
            {field.addon}
          </Space.Compact>
        </Form.Item>
      ) : (
        item
      )}
    </Col>
  );
}
