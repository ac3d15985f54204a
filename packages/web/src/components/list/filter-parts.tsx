import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../lib/use-media-query';

// The pieces every list's filter form is built from (usage logs, audit trail, task and drawing logs), so the
// time fields and the search/reset pair look and behave alike on every list page.

export const FILTER_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** A time window as the range picker holds it; either end may be open. */
export type TimeRange = [Dayjs | null, Dayjs | null] | null;

/** A window in unix seconds (0 = open) to the picker's value and back. */
export const timeRange = {
  fromUnix(start: number, end: number): TimeRange {
    return [start ? dayjs.unix(start) : null, end ? dayjs.unix(end) : null];
  },
  toUnix(range: TimeRange | undefined): { start: number; end: number } {
    const [start, end] = range ?? [null, null];
    return { start: start ? start.unix() : 0, end: end ? end.unix() : 0 };
  },
};

/** One date-and-time picker; `readOnly` keeps a phone's keyboard from covering the panel. */
export function TimePickerItem({
  name,
  label,
  readOnly,
}: {
  name: string | [string, number];
  label: string;
  readOnly: boolean;
}) {
  return (
    <Form.Item name={name}>
      <DatePicker
        showTime
        format={FILTER_TIME_FORMAT}
        placeholder={label}
        aria-label={label}
        inputReadOnly={readOnly}
      />
    </Form.Item>
  );
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
        <TimePickerItem name={[name, 0]} label={startLabel} readOnly />
        <TimePickerItem name={[name, 1]} label={endLabel} readOnly />
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

/** Admins' channel filter: a channel id, digits only (trimmed), `hidden` while the filters are folded away. */
export function ChannelFilterItem({ label, invalid, hidden }: { label: string; invalid: string; hidden?: boolean }) {
  return (
    <Form.Item
      name="channel"
      hidden={hidden}
      rules={[{ pattern: /^\d*$/, message: invalid }]}
      normalize={(value: string) => value.trim()}
    >
      <Input allowClear inputMode="numeric" placeholder={label} aria-label={label} />
    </Form.Item>
  );
}
