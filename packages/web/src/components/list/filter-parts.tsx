import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../lib/use-media-query';

// The pieces every list's filter form is built from (usage logs, audit trail, task and drawing logs), so the
// time fields and the search/reset pair look and behave alike on every list page.

export const FILTER_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** A time window as the range picker holds it; either end may be open. */
export type TimeRange = [Dayjs | null, Dayjs | null] | null;

/** Unix seconds (0 = open) → the picker's value. */
export function rangeFromUnix(start: number, end: number): TimeRange {
  return [start ? dayjs.unix(start) : null, end ? dayjs.unix(end) : null];
}

/** The picker's value → unix seconds, 0 for an open end. */
export function unixFromRange(range: TimeRange | undefined): { start: number; end: number } {
  const [start, end] = range ?? [null, null];
  return { start: start ? start.unix() : 0, end: end ? end.unix() : 0 };
}

interface TimeRangeItemProps {
  /** The form field holding a `TimeRange`. */
  name: string;
  startLabel: string;
  endLabel: string;
  /** The range picker's accessible name. */
  rangeLabel: string;
}

/**
 * A time window filter: one range picker on a wide screen; on a phone two pickers, one per end, since the range
 * panel does not fit (read-only inputs keep the keyboard from covering it).
 */
export function TimeRangeItem({ name, startLabel, endLabel, rangeLabel }: TimeRangeItemProps) {
  const isMobile = useIsMobile();
  if (isMobile) {
    return (
      <>
        <Form.Item name={[name, 0]}>
          <DatePicker
            showTime
            format={FILTER_TIME_FORMAT}
            placeholder={startLabel}
            aria-label={startLabel}
            inputReadOnly
          />
        </Form.Item>
        <Form.Item name={[name, 1]}>
          <DatePicker showTime format={FILTER_TIME_FORMAT} placeholder={endLabel} aria-label={endLabel} inputReadOnly />
        </Form.Item>
      </>
    );
  }
  return (
    <Form.Item name={name}>
      <DatePicker.RangePicker
        showTime
        format={FILTER_TIME_FORMAT}
        allowEmpty={[true, true]}
        placeholder={[startLabel, endLabel]}
        aria-label={rangeLabel}
      />
    </Form.Item>
  );
}

interface FilterActionsProps {
  className: string;
  searching: boolean;
  resetLabel: string;
  onReset: () => void;
  /** Anything after the pair (the log's "more filters" toggle). */
  children?: ReactNode;
}

/** The submit (search) and reset buttons that end every filter form. */
export function FilterActions({ className, searching, resetLabel, onReset, children }: FilterActionsProps) {
  const { t } = useTranslation();
  return (
    <Form.Item className={className}>
      <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={searching}>
        {t('ui.search')}
      </Button>
      <Button icon={<ReloadOutlined />} onClick={onReset}>
        {resetLabel}
      </Button>
      {children}
    </Form.Item>
  );
}
