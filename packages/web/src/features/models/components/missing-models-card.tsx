import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useAddMissingModels } from '../api/catalogue-mutations';
import { useMissingModels } from '../api/catalogue-queries';

/** Models some channel serves that the catalogue does not know, each one click away from being added. */
export function MissingModelsCard() {
  const { t } = useTranslation();
  const missing = useMissingModels();
  const add = useAddMissingModels();
  const names = missing.data ?? [];

  const addNames = (list: string[]) =>
    add.mutate(list, { onSuccess: ({ added }) => notify.success(t('models.missing_added', { count: added })) });

  if (missing.isPending) return <Skeleton active paragraph={{ rows: 1 }} data-testid="missing-models-skeleton" />;
  if (missing.isError) {
    return (
      <Alert
        type="error"
        showIcon
        message={t('models.missing_failed')}
        action={
          <Button size="small" onClick={() => void missing.refetch()}>
            {t('models.retry')}
          </Button>
        }
      />
    );
  }
  if (!names.length) return null;
  return (
    <Card
      size="small"
      className="models-missing"
      data-testid="missing-models"
      title={t('models.missing_title', { count: names.length })}
      extra={
        <Button
          size="small"
          type="primary"
          icon={<PlusOutlined />}
          loading={add.isPending && add.variables?.length === names.length}
          onClick={() => addNames(names)}
        >
          {t('models.missing_add_all')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('models.missing_hint')}</Typography.Paragraph>
      <Flex gap={8} wrap>
        {names.map((name) => (
          <Tag key={name} className="models-missing-tag">
            <span className="models-missing-name">{name}</span>
            <Button
              size="small"
              type="link"
              icon={<PlusOutlined />}
              aria-label={t('models.missing_add', { name })}
              data-testid={`missing-add-${name}`}
              loading={add.isPending && add.variables?.length === 1 && add.variables[0] === name}
              onClick={() => addNames([name])}
            />
          </Tag>
        ))}
      </Flex>
    </Card>
  );
}
