import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ChannelFilterItem,
  FilterActions,
  type TimeRange,
  TimeRangeItem,
  timeRange,
} from '../../../components/list/filter-parts';
import { useIsMobile } from '../../../lib/use-media-query';
import { emptyFilters, FILTERABLE_TYPES, LOG_TYPES } from '../log-view';
import type { LogFilters } from '../types';

interface FilterValues {
  type: number;
  tokenName?: string;
  modelName?: string;
  group?: string;
  range?: TimeRange;
  username?: string;
  channel?: string;
}

function toValues(filters: LogFilters): FilterValues {
  return {
    type: filters.type,
    tokenName: filters.tokenName,
    modelName: filters.modelName,
    group: filters.group,
    range: timeRange.fromUnix(filters.start, filters.end),
    username: filters.username,
    channel: filters.channel,
  };
}

function toFilters(values: FilterValues): LogFilters {
  const { start, end } = timeRange.toUnix(values.range);
  return {
    type: values.type ?? 0,
    tokenName: values.tokenName ?? '',
    modelName: values.modelName ?? '',
    group: values.group ?? '',
    start,
    end,
    username: values.username ?? '',
    channel: values.channel ?? '',
  };
}

interface LogFiltersBarProps {
  initial: LogFilters;
  admin: boolean;
  searching: boolean;
  onApply: (filters: LogFilters) => void;
}

/** The log filters: applied on submit (Enter or the search button); reset goes back to today's window. */
export function LogFiltersBar({ initial, admin, searching, onApply }: LogFiltersBarProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [form] = Form.useForm<FilterValues>();
  // On a phone the text filters fold away so the logs start near the top; folded fields keep their values.
  const [more, setMore] = useState(false);
  const folded = isMobile && !more;

  const typeOptions = [
    { value: 0, label: t('log.type_all') },
    ...FILTERABLE_TYPES.map((type) => ({ value: type, label: t(LOG_TYPES[type]!.labelKey) })),
  ];

  const reset = () => {
    const fresh = emptyFilters();
    form.setFieldsValue(toValues(fresh));
    onApply(fresh);
  };

  return (
    <Form<FilterValues>
      form={form}
      layout="inline"
      className="log-filters"
      initialValues={toValues(initial)}
      onFinish={(values) => onApply(toFilters(values))}
      data-testid="log-filters"
    >
      <Form.Item name="type">
        <Select options={typeOptions} aria-label={t('log.filter_type')} className="log-filter-type" />
      </Form.Item>
      <TimeRangeItem
        name="range"
        startLabel={t('log.filter_start')}
        endLabel={t('log.filter_end')}
        rangeLabel={t('log.filter_time')}
      />
      <Form.Item name="tokenName" hidden={folded}>
        <Input allowClear placeholder={t('log.filter_token')} aria-label={t('log.filter_token')} />
      </Form.Item>
      <Form.Item name="modelName" hidden={folded}>
        <Input allowClear placeholder={t('log.filter_model')} aria-label={t('log.filter_model')} />
      </Form.Item>
      <Form.Item name="group" hidden={folded}>
        <Input allowClear placeholder={t('log.filter_group')} aria-label={t('log.filter_group')} />
      </Form.Item>
      {admin && (
        <>
          <Form.Item name="username" hidden={folded}>
            <Input allowClear placeholder={t('log.filter_username')} aria-label={t('log.filter_username')} />
          </Form.Item>
          <ChannelFilterItem
            label={t('log.filter_channel')}
            invalid={t('log.filter_channel_invalid')}
            hidden={folded}
          />
        </>
      )}
      <FilterActions className="log-filter-actions" searching={searching} resetLabel={t('log.reset')} onReset={reset}>
        {isMobile && (
          <Button type="link" onClick={() => setMore(!more)} icon={more ? <UpOutlined /> : <DownOutlined />}>
            {more ? t('log.fewer_filters') : t('log.more_filters')}
          </Button>
        )}
      </FilterActions>
    </Form>
  );
}
