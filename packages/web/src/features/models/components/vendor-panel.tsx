import { DeleteOutlined, EditOutlined, PlusOutlined, ShopOutlined } from '@ant-design/icons';
import type { CatalogueVendor } from '@gateway/shared';
import { Button, Drawer, Flex, Form, Input, Popconfirm, Skeleton, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListTable } from '../../../components/list/list-table';
import { VendorIcon } from '../../../components/vendor-icon/vendor-icon';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import { useDeleteVendor, useSaveVendor, type VendorDraft } from '../api/catalogue-mutations';
import { useVendors } from '../api/catalogue-queries';
import { IconSelect } from './icon-select';

interface VendorFormValues {
  name: string;
  description: string;
  icon: string;
}

/** The vendors tab: each vendor with its icon, description and number of models; add, edit, delete. */
export function VendorPanel() {
  const { t } = useTranslation();
  const vendors = useVendors();
  const remove = useDeleteVendor();
  const [drawer, setDrawer] = useState<{ open: boolean; vendor?: CatalogueVendor }>({ open: false });

  const columns: ColumnsType<CatalogueVendor> = [
    {
      key: 'name',
      title: t('models.vendor_col_name'),
      render: (_, vendor) => (
        <Flex gap={8} align="center">
          <VendorIcon icon={vendor.icon} label={vendor.name} size={22} />
          <Typography.Text strong>{vendor.name}</Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'description',
      title: t('models.col_description'),
      dataIndex: 'description',
      render: (text: string) => <Typography.Text type="secondary">{text || '—'}</Typography.Text>,
    },
    { key: 'count', title: t('models.vendor_col_models'), dataIndex: 'model_count' },
    {
      key: 'actions',
      title: t('ui.actions'),
      render: (_, vendor) => (
        <Space size={4}>
          <Button size="small" icon={<EditOutlined />} onClick={() => setDrawer({ open: true, vendor })}>
            {t('ui.edit')}
          </Button>
          <Popconfirm
            title={t('models.vendor_delete_confirm')}
            onConfirm={() => remove.mutate(vendor.id, { onSuccess: () => notify.success(t('models.deleted')) })}
          >
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('ui.delete')} />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const add = (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setDrawer({ open: true })}
      data-testid="vendor-create"
    >
      {t('models.vendor_create')}
    </Button>
  );

  return (
    <Flex vertical gap={12}>
      <div>{add}</div>
      {vendors.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <ListTable<CatalogueVendor>
          testId="vendors-list"
          columns={columns}
          dataSource={vendors.data ?? []}
          pagination={false}
          empty={
            <ListEmpty
              failed={vendors.isError}
              failedText={t('models.vendors_failed')}
              onRetry={() => void vendors.refetch()}
              icon={<ShopOutlined className="empty-icon" />}
              emptyText={t('models.vendors_empty')}
            />
          }
        />
      )}
      <VendorDrawer
        open={drawer.open}
        vendor={drawer.vendor}
        onClose={() => setDrawer((previous) => ({ ...previous, open: false }))}
      />
    </Flex>
  );
}

function VendorDrawer({ open, vendor, onClose }: { open: boolean; vendor?: CatalogueVendor; onClose: () => void }) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const save = useSaveVendor();
  const [form] = Form.useForm<VendorFormValues>();
  const onFinish = (values: VendorFormValues) => {
    const draft: VendorDraft = {
      id: vendor?.id,
      name: values.name.trim(),
      description: values.description ?? '',
      icon: values.icon ?? '',
    };
    save.mutate(draft, {
      onSuccess: () => {
        notify.success(t('models.saved'));
        onClose();
      },
    });
  };
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={vendor ? t('models.vendor_edit_title') : t('models.vendor_create_title')}
      size={isMobile ? '100%' : 480}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={onClose}>{t('ui.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="vendor-save">
            {t('ui.save')}
          </Button>
        </Flex>
      }
    >
      <Form<VendorFormValues>
        key={vendor?.id ?? 'new'}
        form={form}
        layout="vertical"
        initialValues={{ name: vendor?.name ?? '', description: vendor?.description ?? '', icon: vendor?.icon ?? '' }}
        onFinish={onFinish}
      >
        <Form.Item
          name="name"
          label={t('models.vendor_col_name')}
          rules={[{ required: true, whitespace: true, message: t('models.vendor_name_required') }]}
        >
          <Input maxLength={128} data-testid="vendor-name" />
        </Form.Item>
        <Form.Item name="icon" label={t('models.field_icon')}>
          <IconSelect />
        </Form.Item>
        <Form.Item name="description" label={t('models.field_description')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} data-testid="vendor-description" />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
