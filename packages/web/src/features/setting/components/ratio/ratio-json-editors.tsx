import { UndoOutlined } from '@ant-design/icons';
import { Button, Popconfirm } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../lib/notify';
import { useResetModelRatio } from '../../api/use-reset-model-ratio';
import type { OptionMap } from '../../option-form';
import type { FieldSpec } from '../kit/field-spec';
import { OptionSection } from '../kit/option-section';

/** The pricing options as raw JSON, checked as JSON before saving, plus "reset model ratios". */
export function RatioJsonEditors({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const reset = useResetModelRatio();
  const fields = useMemo<FieldSpec[]>(
    () => [
      {
        key: 'ModelPrice',
        kind: 'json',
        label: t('setting.ratio.model_price'),
        help: t('setting.ratio.model_price_help'),
        rows: 6,
        wide: true,
      },
      {
        key: 'ModelRatio',
        kind: 'json',
        label: t('setting.ratio.model_ratio'),
        help: t('setting.ratio.model_ratio_help'),
        rows: 6,
        wide: true,
      },
      {
        key: 'CacheRatio',
        kind: 'json',
        label: t('setting.ratio.cache_ratio'),
        help: t('setting.ratio.cache_ratio_help'),
        rows: 6,
        wide: true,
      },
      {
        key: 'AudioRatio',
        kind: 'json',
        label: t('setting.ratio.audio_ratio'),
        help: t('setting.ratio.audio_ratio_help'),
        rows: 6,
        wide: true,
      },
      {
        key: 'AudioCompletionRatio',
        kind: 'json',
        label: t('setting.ratio.audio_completion_ratio'),
        help: t('setting.ratio.audio_completion_ratio_help'),
        rows: 6,
        wide: true,
      },
      {
        key: 'CompletionRatio',
        kind: 'json',
        label: t('setting.ratio.completion_ratio'),
        help: t('setting.ratio.completion_ratio_help'),
        rows: 6,
        wide: true,
      },
      {
        key: 'GroupRatio',
        kind: 'json',
        label: t('setting.ratio.group_ratio'),
        help: t('setting.ratio.group_ratio_help'),
        rows: 4,
        wide: true,
      },
      {
        key: 'UserUsableGroups',
        kind: 'json',
        label: t('setting.ratio.usable_groups'),
        help: t('setting.ratio.usable_groups_help'),
        rows: 4,
        wide: true,
      },
    ],
    [t],
  );

  return (
    <OptionSection
      bare
      fields={fields}
      options={options}
      testId="ratio-json"
      saveLabel={t('setting.ratio.save_json')}
      actions={
        <Popconfirm
          title={t('setting.ratio.reset_title')}
          description={t('setting.ratio.reset_text')}
          okText={t('setting.ratio.reset')}
          okButtonProps={{ danger: true }}
          cancelText={t('ui.cancel')}
          onConfirm={() => reset.mutate(undefined, { onSuccess: (message) => notify.success(message) })}
        >
          <Button danger icon={<UndoOutlined />} loading={reset.isPending}>
            {t('setting.ratio.reset')}
          </Button>
        </Popconfirm>
      }
    />
  );
}
