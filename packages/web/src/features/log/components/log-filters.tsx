import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../lib/use-media-query';
import { emptyFilters, FILTERABLE_TYPES, LOG_TYPES } from '../log-view';
import type { LogFilters } from '../types';

interface FilterValues {
  type: number;
  tokenName?: string;
  modelName?: string;
  group?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
  username?: string;
  channel?: string;
}

function toValues(filters: LogFilters): FilterValues {
  return {
    type: filters.type,
    tokenName: filters.tokenName,
    modelName: filters.modelName,
    group: filters.group,
    range: [filters.start ? dayjs.unix(filters.start) : null, filters.end ? dayjs.unix(filters.end) : null],
    username: filters.username,
    channel: filters.channel,
  };
}

function toFilters(values: FilterValues): LogFilters {
  const [start, end] = values.range ?? [null, null];
  return {
    type: values.type ?? 0,
    tokenName: values.tokenName ?? '',
    modelName: values.modelName ?? '',
    group: values.group ?? '',
    start: start ? start.unix() : 0,
    end: end ? end.unix() : 0,
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

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

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
      {isMobile ? (
        <>
          <Form.Item name={['range', 0]}>
            <DatePicker
              showTime
              format={TIME_FORMAT}
              placeholder={t('log.filter_start')}
              aria-label={t('log.filter_start')}
              inputReadOnly
            />
          </Form.Item>
          <Form.Item name={['range', 1]}>
            <DatePicker
              showTime
              format={TIME_FORMAT}
              placeholder={t('log.filter_end')}
              aria-label={t('log.filter_end')}
              inputReadOnly
            />
          </Form.Item>
        </>
      ) : (
        <Form.Item name="range">
          <DatePicker.RangePicker
            showTime
            format={TIME_FORMAT}
            allowEmpty={[true, true]}
            placeholder={[t('log.filter_start'), t('log.filter_end')]}
            aria-label={t('log.filter_time')}
          />
        </Form.Item>
      )}
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
          <Form.Item
            name="channel"
            hidden={folded}
            rules={[{ pattern: /^\d*$/, message: t('log.filter_channel_invalid') }]}
            normalize={(value: string) => value.trim()}
          >
            <Input
              allowClear
              inputMode="numeric"
              placeholder={t('log.filter_channel')}
              aria-label={t('log.filter_channel')}
            />
          </Form.Item>
        </>
      )}
      <Form.Item className="log-filter-actions">
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={searching}>
          {t('ui.search')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={reset}>
          {t('log.reset')}
        </Button>
        {isMobile && (
          <Button type="link" onClick={() => setMore(!more)} icon={more ? <UpOutlined /> : <DownOutlined />}>
            {more ? t('log.fewer_filters') : t('log.more_filters')}
          </Button>
        )}
      </Form.Item>
    </Form>
  );
}
