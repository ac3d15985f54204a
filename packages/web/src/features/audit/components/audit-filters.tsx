import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../lib/use-media-query';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, actionLabelKey, emptyAuditFilters } from '../audit-view';
import type { AuditFilters } from '../types';

interface FilterValues {
  action?: string;
  actor?: string;
  targetType?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

function toValues(filters: AuditFilters): FilterValues {
  return {
    action: filters.action || undefined,
    actor: filters.actor,
    targetType: filters.targetType || undefined,
    range: [filters.start ? dayjs.unix(filters.start) : null, filters.end ? dayjs.unix(filters.end) : null],
  };
}

function toFilters(values: FilterValues): AuditFilters {
  const [start, end] = values.range ?? [null, null];
  return {
    action: values.action ?? '',
    actor: values.actor ?? '',
    targetType: values.targetType ?? '',
    start: start ? start.unix() : 0,
    end: end ? end.unix() : 0,
  };
}

const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Audit filters, applied on submit; reset clears them all (the trail is short enough to open unfiltered). */
export function AuditFiltersBar({ searching, onApply }: { searching: boolean; onApply: (f: AuditFilters) => void }) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [form] = Form.useForm<FilterValues>();
  const actionOptions = AUDIT_ACTIONS.map((action) => ({ value: action, label: t(actionLabelKey(action)!) }));
  const targetOptions = AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: t(`audit.targets.${type}`) }));

  const reset = () => {
    const fresh = emptyAuditFilters();
    form.resetFields();
    onApply(fresh);
  };

  return (
    <Form<FilterValues>
      form={form}
      layout="inline"
      className="table-search audit-filters"
      initialValues={toValues(emptyAuditFilters())}
      onFinish={(values) => onApply(toFilters(values))}
      data-testid="audit-filters"
    >
      <Form.Item name="action">
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          options={actionOptions}
          placeholder={t('audit.filter_action')}
          aria-label={t('audit.filter_action')}
          className="audit-filter-select"
        />
      </Form.Item>
      <Form.Item name="targetType">
        <Select
          allowClear
          options={targetOptions}
          placeholder={t('audit.filter_target')}
          aria-label={t('audit.filter_target')}
          className="audit-filter-select"
        />
      </Form.Item>
      <Form.Item name="actor">
        <Input allowClear placeholder={t('audit.filter_actor')} aria-label={t('audit.filter_actor')} />
      </Form.Item>
      {isMobile ? (
        <>
          <Form.Item name={['range', 0]}>
            <DatePicker
              showTime
              format={TIME_FORMAT}
              placeholder={t('audit.filter_start')}
              aria-label={t('audit.filter_start')}
              inputReadOnly
            />
          </Form.Item>
          <Form.Item name={['range', 1]}>
            <DatePicker
              showTime
              format={TIME_FORMAT}
              placeholder={t('audit.filter_end')}
              aria-label={t('audit.filter_end')}
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
            placeholder={[t('audit.filter_start'), t('audit.filter_end')]}
            aria-label={t('audit.filter_time')}
          />
        </Form.Item>
      )}
      <Form.Item className="audit-filter-actions">
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={searching}>
          {t('ui.search')}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={reset}>
          {t('audit.reset')}
        </Button>
      </Form.Item>
    </Form>
  );
}
