import { AppstoreOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import type { CatalogueModel } from '@gateway/shared';
import { Button, Flex, Form, Input, Select, Skeleton, Space, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListEmpty } from '../../../components/list/list-empty';
import { ListPageCard } from '../../../components/list/list-page-card';
import { readPageSize } from '../../../components/list/page-size';
import { useServerPagination } from '../../../components/list/server-pagination';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import { useDeleteModel, useSetModelShown } from '../api/catalogue-mutations';
import { type ModelListQuery, useCatalogueModels, useVendors } from '../api/catalogue-queries';
import { MissingModelsCard } from '../components/missing-models-card';
import { ModelDrawer } from '../components/model-drawer';
import { ModelCards, ModelTable } from '../components/model-list';
import { VendorPanel } from '../components/vendor-panel';
import '../models.css';

/** The model catalogue: models (with the ones channels serve but the catalogue lacks) and vendors. */
export default function ModelsPage() {
  const { t } = useTranslation();
  return (
    <ListPageCard title={t('models.title')} subtitle={t('models.subtitle')}>
      <Tabs
        items={[
          { key: 'models', label: t('models.tab_models'), children: <ModelsTab /> },
          { key: 'vendors', label: t('models.tab_vendors'), children: <VendorPanel /> },
        ]}
      />
    </ListPageCard>
  );
}

function ModelsTab() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const List = isMobile ? ModelCards : ModelTable;
  const [query, setQuery] = useState<ModelListQuery>(() => ({
    page: 1,
    pageSize: readPageSize(),
    keyword: '',
    vendorId: 0,
  }));
  const models = useCatalogueModels(query);
  const vendors = useVendors();
  const vendorById = useMemo(() => new Map((vendors.data ?? []).map((vendor) => [vendor.id, vendor])), [vendors.data]);
  const setShown = useSetModelShown();
  const remove = useDeleteModel();
  const [drawer, setDrawer] = useState<{ open: boolean; model?: CatalogueModel }>({ open: false });
  const pagination = useServerPagination(query, setQuery, models.data?.total ?? 0);
  const filtered = query.keyword.trim() !== '' || query.vendorId > 0;

  const empty = (
    <ListEmpty
      failed={models.isError}
      failedText={t('models.load_failed')}
      onRetry={() => void models.refetch()}
      filtered={filtered}
      noMatchText={t('models.no_match')}
      icon={<AppstoreOutlined className="empty-icon" />}
      emptyText={t('models.empty')}
    />
  );

  return (
    <Flex vertical gap={12}>
      <MissingModelsCard />
      <Flex gap={12} wrap justify="space-between" align="flex-start">
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDrawer({ open: true })}
          data-testid="model-create"
        >
          {t('models.create')}
        </Button>
        <Form<{ keyword?: string }>
          layout="inline"
          className="models-search"
          onFinish={(values) => setQuery((previous) => ({ ...previous, page: 1, keyword: values.keyword ?? '' }))}
        >
          <Space wrap>
            <Select
              className="models-vendor-filter"
              value={query.vendorId}
              aria-label={t('models.field_vendor')}
              onChange={(vendorId) => setQuery((previous) => ({ ...previous, page: 1, vendorId }))}
              options={[
                { value: 0, label: t('models.all_vendors') },
                ...(vendors.data ?? []).map((vendor) => ({ value: vendor.id, label: vendor.name })),
              ]}
            />
            <Form.Item name="keyword" noStyle>
              <Input
                allowClear
                prefix={<SearchOutlined />}
                placeholder={t('models.search')}
                aria-label={t('models.search')}
              />
            </Form.Item>
            <Button htmlType="submit" loading={models.isFetching && !models.isPending}>
              {t('ui.search')}
            </Button>
          </Space>
        </Form>
      </Flex>
      {models.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} data-testid="models-skeleton" />
      ) : (
        <List
          models={models.data?.items ?? []}
          vendors={vendorById}
          loading={models.isFetching}
          pagination={pagination}
          empty={empty}
          onEdit={(model) => setDrawer({ open: true, model })}
          onDelete={(model) => remove.mutate(model.id, { onSuccess: () => notify.success(t('models.deleted')) })}
          onToggleShown={(model) => setShown.mutate({ id: model.id, shown: model.status !== 1 })}
          togglingId={setShown.isPending ? setShown.variables?.id : undefined}
        />
      )}
      <ModelDrawer
        open={drawer.open}
        model={drawer.model}
        vendors={vendors.data ?? []}
        onClose={() => setDrawer((previous) => ({ ...previous, open: false }))}
      />
    </Flex>
  );
}
