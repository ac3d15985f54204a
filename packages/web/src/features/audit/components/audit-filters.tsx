import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FilterActions, type TimeRange, TimeRangeItem, timeRange } from '../../../components/list/filter-parts';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, actionLabelKey, emptyAuditFilters } from '../audit-view';
import type { AuditFilters } from '../types';

interface FilterValues {
  action?: string;
  actor?: string;
  targetType?: string;
  range?: TimeRange;
}

function toValues(filters: AuditFilters): FilterValues {
  return {
    action: filters.action || undefined,
    actor: filters.actor,
    targetType: filters.targetType || undefined,
    range: timeRange.fromUnix(filters.start, filters.end),
  };
}

function toFilters(values: FilterValues): AuditFilters {
  return {
    action: values.action ?? '',
    actor: values.actor ?? '',
    targetType: values.targetType ?? '',
    ...timeRange.toUnix(values.range),
  };
}

/** Audit filters, applied on submit; reset clears them all (the trail is short enough to open unfiltered). */
export function AuditFiltersBar({ searching, onApply }: { searching: boolean; onApply: (f: AuditFilters) => void }) {
  const { t } = useTranslation();
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
      <TimeRangeItem
        name="range"
        startLabel={t('audit.filter_start')}
        endLabel={t('audit.filter_end')}
        rangeLabel={t('audit.filter_time')}
      />
      <FilterActions
        className="audit-filter-actions"
        searching={searching}
        resetLabel={t('audit.reset')}
        onReset={reset}
      />
    </Form>
  );
}
