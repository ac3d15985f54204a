import { Alert, Flex, Input, InputNumber, Select, Skeleton, Slider, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TEMPERATURE } from '../chat-request';
import type { PlaygroundGroups } from '../types';

interface SettingsPanelProps {
  groups: PlaygroundGroups | undefined;
  groupsLoading: boolean;
  models: string[] | undefined;
  /** Reachable but unpriced: listed disabled so their absence is explained. */
  unpricedModels?: string[];
  modelsLoading: boolean;
  group: string;
  model: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
  onChange: (change: {
    group?: string;
    model?: string;
    temperature?: number;
    maxTokens?: number;
    systemPrompt?: string;
  }) => void;
}

function Field({
  label,
  htmlFor,
  extra,
  children,
}: {
  label: string;
  htmlFor?: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Flex vertical gap={6} className="pg-field">
      <Flex justify="space-between" align="center" gap={8}>
        <label htmlFor={htmlFor} className="pg-field-label">
          {label}
        </label>
        {extra}
      </Flex>
      {children}
    </Flex>
  );
}

/** Group, model, temperature, max tokens and system prompt (spec 001, Playground, left panel). */
export function SettingsPanel(props: SettingsPanelProps) {
  const { t } = useTranslation();
  const { groups, models, onChange } = props;

  const groupOptions = Object.entries(groups ?? {}).map(([name, info]) => ({
    value: name,
    label: `${name} · ${t('playground.ratio', { ratio: info.ratio })}`,
    desc: info.desc,
  }));
  const modelOptions = [
    ...(models ?? []).map((name) => ({ value: name, label: name, disabled: false })),
    ...(props.unpricedModels ?? []).map((name) => ({
      value: name,
      label: `${name} · ${t('ui.model_unpriced')}`,
      disabled: true,
    })),
  ];

  return (
    <Flex vertical gap={20} className="pg-settings" data-testid="playground-settings">
      <Field label={t('playground.group')} htmlFor="pg-group">
        {props.groupsLoading ? (
          <Skeleton.Input active block size="small" />
        ) : groupOptions.length === 0 ? (
          <Alert type="warning" showIcon title={t('playground.no_groups')} />
        ) : (
          <Select
            id="pg-group"
            value={props.group || undefined}
            options={groupOptions}
            onChange={(group: string) => onChange({ group })}
            optionRender={(option) => (
              <Flex vertical>
                <span>{option.data.label}</span>
                {option.data.desc && (
                  <Typography.Text type="secondary" className="pg-option-desc">
                    {option.data.desc}
                  </Typography.Text>
                )}
              </Flex>
            )}
            aria-label={t('playground.group')}
            data-testid="playground-group"
          />
        )}
      </Field>

      <Field label={t('playground.model')} htmlFor="pg-model">
        {props.modelsLoading ? (
          <Skeleton.Input active block size="small" />
        ) : modelOptions.length === 0 ? (
          <Alert type="warning" showIcon title={t('playground.no_models')} />
        ) : (
          <Select
            id="pg-model"
            showSearch={{ optionFilterProp: 'label' }}
            value={props.model || undefined}
            options={modelOptions}
            onChange={(model: string) => onChange({ model })}
            placeholder={t('playground.model_placeholder')}
            notFoundContent={t('playground.model_not_found')}
            aria-label={t('playground.model')}
            data-testid="playground-model"
          />
        )}
      </Field>

      <Field
        label={t('playground.temperature')}
        extra={
          <Tag variant="filled" className="pg-value-tag">
            {props.temperature.toFixed(1)}
          </Tag>
        }
      >
        <Slider
          min={TEMPERATURE.min}
          max={TEMPERATURE.max}
          step={TEMPERATURE.step}
          value={props.temperature}
          onChange={(temperature: number) => onChange({ temperature })}
          marks={{ 0: '0', 0.5: '0.5', 1: '1' }}
          aria-label={t('playground.temperature')}
        />
      </Field>

      <Field label={t('playground.max_tokens')} htmlFor="pg-max-tokens">
        <InputNumber<number>
          id="pg-max-tokens"
          min={0}
          step={1}
          precision={0}
          value={props.maxTokens}
          onChange={(value) => onChange({ maxTokens: value ?? 0 })}
          style={{ width: '100%' }}
          aria-label={t('playground.max_tokens')}
          data-testid="playground-max-tokens"
        />
        <Typography.Text type="secondary" className="pg-hint">
          {t('playground.max_tokens_hint')}
        </Typography.Text>
      </Field>

      <Field label={t('playground.system_prompt')} htmlFor="pg-system">
        <Input.TextArea
          id="pg-system"
          value={props.systemPrompt}
          onChange={(event) => onChange({ systemPrompt: event.target.value })}
          autoSize={{ minRows: 3, maxRows: 10 }}
          placeholder={t('playground.system_prompt_placeholder')}
          aria-label={t('playground.system_prompt')}
          data-testid="playground-system-prompt"
        />
      </Field>
    </Flex>
  );
}
