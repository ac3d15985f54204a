import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { CustomOAuthProviderView } from '@gateway/shared';
import { Button, Card, Flex, Popconfirm, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CustomProviderIcon } from '../../../../components/oauth/custom-provider-icon';
import { notify } from '../../../../lib/notify';
import {
  useCustomOAuthProviders,
  useDeleteCustomOAuthProvider,
  useSaveCustomOAuthProvider,
} from '../../api/use-custom-oauth-providers';
import { CustomOAuthForm } from './custom-oauth-form';

/**
 * Any OAuth 2 / OpenID Connect provider, as many as the root likes, each a sign-in button on the login page and a
 * binding on the personal page. A provider someone is still bound to cannot be deleted (as the family).
 */
export function CustomOAuthSection({ server }: { server: string }) {
  const { t } = useTranslation();
  const providers = useCustomOAuthProviders();
  const save = useSaveCustomOAuthProvider();
  const remove = useDeleteCustomOAuthProvider();
  const [editing, setEditing] = useState<CustomOAuthProviderView | null>(null);
  const [open, setOpen] = useState(false);

  const edit = (provider: CustomOAuthProviderView | null) => {
    setEditing(provider);
    setOpen(true);
  };

  return (
    <Card
      title={t('custom_oauth.title')}
      data-testid="section-custom-oauth"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => edit(null)} data-testid="custom-oauth-add">
          {t('custom_oauth.add')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('custom_oauth.intro')}</Typography.Paragraph>
      <Table<CustomOAuthProviderView>
        rowKey="id"
        size="small"
        loading={providers.isLoading}
        dataSource={providers.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('custom_oauth.empty') }}
        columns={[
          {
            title: t('custom_oauth.name'),
            dataIndex: 'name',
            render: (_, row) => (
              <Flex gap={8} align="center">
                <CustomProviderIcon icon={row.icon} />
                {row.name}
              </Flex>
            ),
          },
          { title: t('custom_oauth.slug'), dataIndex: 'slug', render: (slug) => <code>{slug}</code> },
          { title: t('custom_oauth.client_id'), dataIndex: 'client_id', ellipsis: true },
          {
            title: t('custom_oauth.client_secret'),
            dataIndex: 'client_secret_set',
            render: (set: boolean) =>
              set ? (
                <Tag color="green">{t('custom_oauth.secret_set')}</Tag>
              ) : (
                <Tag>{t('custom_oauth.secret_unset')}</Tag>
              ),
          },
          {
            title: t('custom_oauth.enabled'),
            dataIndex: 'enabled',
            render: (enabled: boolean, row) => (
              <Switch
                size="small"
                checked={enabled}
                aria-label={t('custom_oauth.enabled')}
                data-testid={`custom-oauth-enabled-${row.slug}`}
                loading={save.isPending && save.variables?.id === row.id}
                onChange={(checked) =>
                  save.mutate(
                    { id: row.id, input: { enabled: checked } },
                    { onSuccess: () => notify.success(t('custom_oauth.saved')) },
                  )
                }
              />
            ),
          },
          {
            title: t('custom_oauth.actions'),
            key: 'actions',
            render: (_, row) => (
              <Flex gap={4}>
                <Button size="small" icon={<EditOutlined />} onClick={() => edit(row)}>
                  {t('custom_oauth.edit')}
                </Button>
                <Popconfirm
                  title={t('custom_oauth.delete_confirm', { name: row.name })}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => remove.mutateAsync(row.id).then(() => notify.success(t('custom_oauth.deleted')))}
                >
                  <Button size="small" danger icon={<DeleteOutlined />}>
                    {t('custom_oauth.delete')}
                  </Button>
                </Popconfirm>
              </Flex>
            ),
          },
        ]}
      />
      <CustomOAuthForm open={open} provider={editing} server={server} onClose={() => setOpen(false)} />
    </Card>
  );
}
