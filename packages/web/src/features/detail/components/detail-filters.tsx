import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Flex, Input, Segmented } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../lib/use-media-query';
import { type QuickRange, quickRange } from '../detail-range';
import { GRANULARITIES, type Granularity } from '../types';

export interface DetailFilterValues {
  start: Dayjs;
  end: Dayjs;
  username: string;
}

interface DetailFiltersProps {
  initial: DetailFilterValues;
  admin: boolean;
  granularity: Granularity;
  onGranularity: (granularity: Granularity) => void;
  searching: boolean;
  onApply: (values: DetailFilterValues) => void;
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm';
const QUICK: QuickRange[] = ['today', '7d', '30d'];

/**
 * Range and granularity of the dashboard. A quick range applies at once; typed dates and the username apply on
 * search. The granularity only regroups what is loaded, so it never asks the server again.
 */
export function DetailFilters({ initial, admin, granularity, onGranularity, searching, onApply }: DetailFiltersProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [values, setValues] = useState(initial);
  const [quick, setQuick] = useState<QuickRange | null>('7d');

  const pickQuick = (next: QuickRange) => {
    const [start, end] = quickRange(next, dayjs());
    const applied = { ...values, start, end };
    setQuick(next);
    setValues(applied);
    onApply(applied);
  };
  const reset = () => {
    const [start, end] = quickRange('7d', dayjs());
    const applied = { start, end, username: '' };
    setQuick('7d');
    setValues(applied);
    onApply(applied);
  };
  const setDates = (start: Dayjs | null, end: Dayjs | null) => {
    setQuick(null);
    setValues((previous) => ({ ...previous, start: start ?? previous.start, end: end ?? previous.end }));
  };
  const invalid = values.start.isAfter(values.end);

  return (
    <Flex className="detail-filters" gap={12} wrap align="center" data-testid="detail-filters">
      <Segmented<QuickRange>
        value={quick ?? undefined}
        onChange={pickQuick}
        options={QUICK.map((value) => ({ value, label: t(`detail.range_${value}`) }))}
        aria-label={t('detail.quick_range')}
      />
      {isMobile ? (
        <Flex gap={8} className="detail-dates">
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={TIME_FORMAT}
            value={values.start}
            allowClear={false}
            inputReadOnly
            aria-label={t('detail.start')}
            onChange={(value) => setDates(value, null)}
          />
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={TIME_FORMAT}
            value={values.end}
            allowClear={false}
            inputReadOnly
            aria-label={t('detail.end')}
            onChange={(value) => setDates(null, value)}
          />
        </Flex>
      ) : (
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format={TIME_FORMAT}
          value={[values.start, values.end]}
          allowClear={false}
          aria-label={t('detail.range')}
          placeholder={[t('detail.start'), t('detail.end')]}
          onChange={(range) => setDates(range?.[0] ?? null, range?.[1] ?? null)}
        />
      )}
      <Segmented<Granularity>
        value={granularity}
        onChange={onGranularity}
        options={GRANULARITIES.map((value) => ({ value, label: t(`detail.granularity_${value}`) }))}
        aria-label={t('detail.granularity')}
        data-testid="detail-granularity"
      />
      {admin && (
        <Input
          allowClear
          className="detail-username"
          placeholder={t('detail.username')}
          aria-label={t('detail.username')}
          value={values.username}
          onChange={(event) => setValues((previous) => ({ ...previous, username: event.target.value }))}
          onPressEnter={() => !invalid && onApply(values)}
        />
      )}
      <Flex gap={8}>
        <Button
          type="primary"
          icon={<SearchOutlined />}
          loading={searching}
          disabled={invalid}
          onClick={() => onApply(values)}
        >
          {t('ui.search')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={reset}>
          {t('detail.reset')}
        </Button>
      </Flex>
      {invalid && <span className="detail-filter-error">{t('detail.range_invalid')}</span>}
    </Flex>
  );
}
