import { Button, Form, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ReactNode } from 'react';

export interface Preset {
  key: string | number;
  label: ReactNode;
  apply: () => void;
}

interface PresetFieldProps {
  name: string;
  label: ReactNode;
  required?: boolean;
  /** A line above the presets (what the value means, its limits). */
  help?: ReactNode;
  presets: readonly Preset[];
  rules?: Rule[];
  children: ReactNode;
}

/** A form field with a row of one-click values under it (quota in dollars, batch sizes, expiry shortcuts). */
export function PresetField({ name, label, required, help, presets, rules, children }: PresetFieldProps) {
  const buttons = (
    <Space size={4} wrap style={{ marginTop: 8 }}>
      {presets.map((preset) => (
        <Button key={preset.key} size="small" onClick={preset.apply}>
          {preset.label}
        </Button>
      ))}
    </Space>
  );
  return (
    <Form.Item
      label={label}
      required={required}
      extra={
        help === undefined ? (
          buttons
        ) : (
          <>
            <div>{help}</div>
            {buttons}
          </>
        )
      }
    >
      {/* The inner item holds the value, so the presets and help sit under the input rather than inside it. */}
      <Form.Item name={name} noStyle rules={rules}>
        {children}
      </Form.Item>
    </Form.Item>
  );
}

/** A whole number from `min` (and up to `max` when given), else `message`. */
export function wholeNumberRule(message: string, min: number, max = Number.MAX_SAFE_INTEGER): Rule {
  return {
    validator: (_, value: number | null) =>
      Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}
