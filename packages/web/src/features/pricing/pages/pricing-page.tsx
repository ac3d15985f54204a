import { CopyOutlined, DollarOutlined, ReloadOutlined } from '@ant-design/icons';
import { isAvailableInGroup } from '@gateway/shared';
import { Button, Empty, Flex, Skeleton, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPageCard } from '../../../components/list/list-page-card';
import { useCopyText } from '../../../hooks/use-copy-text';
import { usePricing } from '../../../hooks/use-pricing';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import { useSessionUser } from '../../../lib/session';
import { useIsMobile } from '../../../lib/use-media-query';
import { FormulaBanner, GroupBanner, RatioExplainer } from '../components/pricing-banners';
import { PricingCards } from '../components/pricing-cards';
import { PricingSearch } from '../components/pricing-search';
import { PricingTable } from '../components/pricing-table';
import { groupRatioOf, initialGroup, pricingRows } from '../pricing-view';
import { useModelHealth } from '../use-model-health';
import '../pricing.css';

/** The public model price list (spec 001 "Pricing"): works signed in or not. */
export default function PricingPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const user = useSessionUser();
  const status = usePublicStatus();
  const display = quotaDisplayFrom(status);
  const pricing = usePricing(user?.id ?? null);
  const health = useModelHealth();
  const { copy, fallback } = useCopyText();
  const [search, setSearch] = useState('');
  const [chosenGroup, setChosenGroup] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);

  const groupRatio = pricing.data?.group_ratio ?? {};
  const userGroup = initialGroup(user?.group, groupRatio);
  const viewed = chosenGroup !== null && Object.hasOwn(groupRatio, chosenGroup) ? chosenGroup : userGroup;
  const viewedRatio = groupRatioOf(groupRatio, viewed);
  const rows = useMemo(
    () =>
      pricingRows(
        pricing.data?.data ?? [],
        viewed,
        pricing.data?.group_ratio ?? {},
        display,
        search,
        pricing.data?.vendors ?? [],
      ),
    [pricing.data, viewed, display, search],
  );
  // The counts describe the whole list for the viewed group, not what the search currently shows.
  const entries = pricing.data?.data ?? [];
  const availableCount = entries.filter((entry) => isAvailableInGroup(entry, viewed)).length;

  const switchGroup = (group: string) => {
    setChosenGroup(group);
    notify.info(t('pricing.group_switched', { group, ratio: groupRatioOf(groupRatio, group) }));
  };

  const copySelected = () => {
    if (selected.length === 0) {
      notify.error(t('pricing.select_first'));
      return;
    }
    void copy(selected.join(','), t('pricing.copied_names', { count: selected.length }));
  };

  const List = isMobile ? PricingCards : PricingTable;
  const empty = pricing.isError ? (
    <Empty description={t('pricing.load_failed')}>
      <Button icon={<ReloadOutlined />} onClick={() => void pricing.refetch()}>
        {t('common.retry')}
      </Button>
    </Empty>
  ) : search.trim() ? (
    <Empty description={t('pricing.no_match', { search: search.trim() })} />
  ) : (
    <Empty image={<DollarOutlined className="empty-icon" />} description={t('pricing.empty')} />
  );

  return (
    // The same frame as every other console page: one card with the title, the subtitle and the list.
    <ListPageCard
      title={t('pricing.title')}
      subtitle={t('pricing.subtitle')}
      className="page-container-wide pricing-page"
      overlays={fallback}
      extra={
        pricing.data && (
          <Space wrap size={8}>
            <Tag variant="filled">{t('pricing.stats_models', { count: entries.length })}</Tag>
            <Tag variant="filled" color="success">
              {t('pricing.stats_available', { count: availableCount })}
            </Tag>
          </Space>
        )
      }
    >
      {pricing.data && (
        <GroupBanner
          signedIn={user !== null}
          userGroup={userGroup}
          viewed={viewed}
          groupRatio={groupRatio}
          usableGroup={pricing.data.usable_group}
          onSwitch={switchGroup}
        />
      )}
      <div className="pricing-info">
        <FormulaBanner quotaPerUnit={display.quotaPerUnit} />
        <RatioExplainer />
      </div>
      <Flex gap={12} wrap justify="space-between" align="center">
        <PricingSearch onSearch={setSearch} />
        <Space wrap>
          {selected.length > 0 && (
            <Typography.Text type="secondary">{t('ui.selected_count', { count: selected.length })}</Typography.Text>
          )}
          <Button icon={<CopyOutlined />} onClick={copySelected} data-testid="pricing-copy-selected">
            {t('pricing.copy_selected')}
          </Button>
        </Space>
      </Flex>
      {pricing.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} data-testid="pricing-skeleton" />
      ) : (
        <List
          rows={rows}
          viewed={viewed}
          groupRatio={viewedRatio}
          selectedKeys={selected}
          onSelect={setSelected}
          onCopyName={(name) => void copy(name, t('pricing.copied_name', { name }))}
          onSwitchGroup={switchGroup}
          health={health.data?.models}
          healthLoading={health.isPending}
          empty={empty}
        />
      )}
    </ListPageCard>
  );
}
