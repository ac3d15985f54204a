import { Card, Checkbox, Flex, Pagination } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { availableFirst } from '../pricing-view';
import { ModelHealthCell } from './model-health-cell';
import { AvailabilityMark, BillingTag, GroupTags, ModelName, PriceLines, RatioLines } from './pricing-cells';
import type { PricingListProps } from './pricing-table';

const PAGE_SIZE = 10;

/** The price list on a phone: one card per model, available models first, ten per page. */
export function PricingCards({
  rows,
  viewed,
  groupRatio,
  selectedKeys,
  onSelect,
  onCopyName,
  onSwitchGroup,
  health,
  healthLoading,
  empty,
}: PricingListProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const sorted = availableFirst(rows);
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const visible = sorted.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  const toggle = (name: string, checked: boolean) =>
    onSelect(checked ? [...selectedKeys, name] : selectedKeys.filter((key) => key !== name));

  return (
    <Flex vertical gap={12} data-testid="pricing-table">
      {sorted.length === 0 && <div className="pricing-cards-empty">{empty}</div>}
      {visible.map((row) => (
        <Card key={row.model_name} size="small" className="pricing-card">
          <Flex justify="space-between" align="center" gap={8}>
            <Flex align="center" gap={8} className="pricing-card-name">
              <Checkbox
                checked={selectedKeys.includes(row.model_name)}
                onChange={(event) => toggle(row.model_name, event.target.checked)}
                aria-label={row.model_name}
              />
              <ModelName row={row} onCopy={onCopyName} />
            </Flex>
            <AvailabilityMark available={row.available} />
          </Flex>
          <Flex gap={8} wrap align="center">
            <BillingTag row={row} />
            <GroupTags groups={row.enable_groups} viewed={viewed} onSwitch={onSwitchGroup} />
          </Flex>
          <div className="pricing-card-columns">
            <PriceLines row={row} />
            <RatioLines row={row} groupRatio={groupRatio} />
          </div>
          <ModelHealthCell health={health?.[row.model_name]} loading={healthLoading} />
        </Card>
      ))}
      {sorted.length > PAGE_SIZE && (
        <Pagination
          simple
          align="center"
          current={current}
          pageSize={PAGE_SIZE}
          total={sorted.length}
          onChange={setPage}
          showTotal={(total) => t('ui.total', { total })}
        />
      )}
    </Flex>
  );
}
