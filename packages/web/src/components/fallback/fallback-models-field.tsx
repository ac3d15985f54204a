import { FALLBACK_MODELS_MAX } from '@gateway/shared';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/** The token form's fallback list: models tried in order when the requested one fails; any name may be typed. */
export function FallbackModelsField({
  models,
  loading,
  priced,
}: {
  models: string[];
  loading: boolean;
  /** Models with a price; the others are shown disabled (a fallback to them would fail too). */
  priced?: ReadonlySet<string>;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="fallback_models"
      label={t('fallback.field')}
      extra={t('fallback.field_help', { max: FALLBACK_MODELS_MAX })}
      rules={[
        {
          validator: (_, value: string[] | undefined) =>
            (value ?? []).length <= FALLBACK_MODELS_MAX
              ? Promise.resolve()
              : Promise.reject(new Error(t('errors:token_fallback_models_invalid'))),
        },
      ]}
    >
      <Select
        mode="tags"
        allowClear
        loading={loading}
        tokenSeparators={[',']}
        placeholder={t('fallback.field_placeholder')}
        options={models.map((model) =>
          !priced || priced.has(model)
            ? { value: model, label: model }
            : { value: model, label: `${model} · ${t('ui.model_unpriced')}`, disabled: true },
        )}
        aria-label={t('fallback.field')}
      />
    </Form.Item>
  );
}
