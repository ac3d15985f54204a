import { splitModelList } from '@gateway/shared';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** A token's fallback models on the list, in try order (`a → b`); the group's list applies when it has none. */
export function FallbackModelsSummary({ models }: { models: string | undefined }) {
  const { t } = useTranslation();
  const list = splitModelList(models);
  if (list.length === 0) return <Typography.Text type="secondary">{t('fallback.none')}</Typography.Text>;
  return (
    <Typography.Text className="mono-text" data-testid="token-fallback">
      {list.join(' → ')}
    </Typography.Text>
  );
}
