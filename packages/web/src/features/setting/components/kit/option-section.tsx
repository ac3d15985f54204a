import { SaveOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Form, Row } from 'antd';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../lib/notify';
import { useSaveOptions } from '../../api/use-save-options';
import { changedOptions, type FormValue, type OptionMap, toFormValue, toOptionString } from '../../option-form';
import type { FieldSpec } from './field-spec';
import { OptionField } from './option-field';
import { useReportSave } from './use-report-save';

export interface OptionSectionProps {
  title?: ReactNode;
  /** Shown under the title: what the section is for, warnings. */
  intro?: ReactNode;
  fields: FieldSpec[];
  options: OptionMap;
  /** Refuses the save with a message (e.g. payment needs the server address first); null lets it go. */
  beforeSave?: (changes: Array<[string, string]>) => string | null;
  /** Extra buttons beside Save. */
  actions?: ReactNode;
  saveLabel?: ReactNode;
  /** Without the card frame, for several small sections inside one card. */
  bare?: boolean;
  testId?: string;
  children?: ReactNode;
}

function formValuesOf(fields: FieldSpec[], options: OptionMap): Record<string, FormValue> {
  return Object.fromEntries(fields.map((field) => [field.key, toFormValue(field.kind, options[field.key])]));
}

/**
 * A settings section: its options as a form, validated like the server does, and a Save that sends only the
 * changed keys (one PUT each) and reports nothing-changed / saved / partial failure.
 */
export function OptionSection({
  title,
  intro,
  fields,
  options,
  beforeSave,
  actions,
  saveLabel,
  bare,
  testId,
  children,
}: OptionSectionProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, FormValue>>();
  const save = useSaveOptions();
  const report = useReportSave();
  const initialValues = useMemo(() => formValuesOf(fields, options), [fields, options]);
  const watchesOthers = fields.some((field) => field.disabledWhen);
  const live = Form.useWatch((values) => (watchesOthers ? values : null), form);

  // When the stored options change (after a save, or another admin), fields the admin has not edited follow;
  // an edit that failed to save stays on screen so it can be fixed.
  const previous = useRef(options);
  useEffect(() => {
    const before = previous.current;
    previous.current = options;
    if (before === options) return;
    const updates: Record<string, FormValue> = {};
    for (const field of fields) {
      // A secret being typed differs from the stored '' and so is kept, like any other edit.
      const current = toOptionString(field.kind, field.key, form.getFieldValue(field.key));
      if (current === (before[field.key] ?? '')) updates[field.key] = toFormValue(field.kind, options[field.key]);
    }
    form.setFieldsValue(updates);
  }, [options, fields, form]);

  const onFinish = (values: Record<string, FormValue>) => {
    const changes = changedOptions(fields, options, values);
    if (changes.length > 0 && beforeSave) {
      const refusal = beforeSave(changes);
      if (refusal) {
        notify.error(refusal);
        return;
      }
    }
    if (changes.length === 0) return report([]);
    save.mutate(changes, {
      onSuccess: (results) => {
        // A saved secret is not shown again; clear the typed value so the field returns to "leave empty".
        const savedSecrets = fields.filter(
          (field) => field.kind === 'secret' && results.some((r) => r.ok && r.key === field.key),
        );
        if (savedSecrets.length > 0) form.setFieldsValue(Object.fromEntries(savedSecrets.map((f) => [f.key, ''])));
        report(results);
      },
    });
  };

  const body = (
    <Form
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={onFinish}
      onFinishFailed={() => notify.error(t('setting.check_input'))}
      data-testid={testId}
    >
      {intro}
      <Row gutter={[16, 0]}>
        {fields.map((field) => (
          <OptionField key={field.key} field={field} disabled={Boolean(live && field.disabledWhen?.(live))} />
        ))}
      </Row>
      {children}
      <Flex gap={8} wrap justify="flex-start">
        <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
          {saveLabel ?? t('setting.save_section')}
        </Button>
        {actions}
      </Flex>
    </Form>
  );

  if (bare) return body;
  return (
    <Card title={title} className="setting-section">
      {body}
    </Card>
  );
}
