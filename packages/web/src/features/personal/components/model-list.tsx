import { Button, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Beyond this many models the list folds behind "show all" (spec 000 §9). */
export const MODELS_COLLAPSED = 10;

interface ModelListProps {
  models: string[] | undefined;
  loading: boolean;
  onCopy: (model: string) => void;
}

/** The models the user can call, as tags; a click copies the name. */
export function ModelList({ models, loading, onCopy }: ModelListProps) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  if (loading) return <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  if (!models || models.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('personal.models_empty')} />;
  const shown = expanded ? models : models.slice(0, MODELS_COLLAPSED);
  const hidden = models.length - shown.length;
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary" className="personal-hint">
        {t('personal.models_hint')}
      </Typography.Text>
      <Flex wrap gap={6} data-testid="personal-models">
        {shown.map((model) => (
          <Tag key={model} className="personal-model-tag" variant="filled" onClick={() => onCopy(model)}>
            {model}
          </Tag>
        ))}
      </Flex>
      {models.length > MODELS_COLLAPSED && (
        <div>
          <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setExpanded(!expanded)}>
            {expanded ? t('personal.models_collapse') : t('personal.models_show_all', { count: hidden })}
          </Button>
        </div>
      )}
    </Flex>
  );
}
