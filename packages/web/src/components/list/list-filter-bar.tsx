import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../lib/use-media-query';
import { ChannelFilterItem, FilterActions, TimePickerItem } from './filter-parts';
import type { ListFilters } from './record-view';

interface ListFilterBarProps {
  initial: ListFilters;
  admin: boolean;
  /** Label of the task-id field ("任务 ID"). */
  idLabel: string;
  searching: boolean;
  defaults: () => ListFilters;
  onApply: (filters: ListFilters) => void;
  testId: string;
}

/**
 * Channel (admins only), task id and a time range, applied on submit; reset goes back to the page's default
 * window. Used by the drawing log and the task log.
 */
export function ListFilterBar({ initial, admin, idLabel, searching, defaults, onApply, testId }: ListFilterBarProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [form] = Form.useForm<ListFilters>();
  const reset = () => {
    const fresh = defaults();
    form.setFieldsValue(fresh);
    onApply(fresh);
  };
  const normalize = (value: string) => value.trim();
  return (
    <Form<ListFilters>
      form={form}
      layout="inline"
      className="task-filters"
      initialValues={initial}
      onFinish={(values) =>
        onApply({
          channel: values.channel ?? '',
          id: values.id ?? '',
          start: values.start ?? null,
          end: values.end ?? null,
        })
      }
      data-testid={testId}
    >
      {admin && <ChannelFilterItem label={t('task.filter_channel')} invalid={t('task.filter_channel_invalid')} />}
      <Form.Item name="id" normalize={normalize}>
        <Input allowClear placeholder={idLabel} aria-label={idLabel} />
      </Form.Item>
      <TimePickerItem name="start" label={t('task.filter_start')} readOnly={isMobile} />
      <TimePickerItem name="end" label={t('task.filter_end')} readOnly={isMobile} />
      <FilterActions
        className="task-filter-actions"
        searching={searching}
        resetLabel={t('task.reset')}
        onReset={reset}
      />
    </Form>
  );
}
