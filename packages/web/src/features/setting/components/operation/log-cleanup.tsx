import { DeleteOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Popconfirm, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../../lib/notify';
import { useClearLogs } from '../../api/use-clear-logs';

/** Deletes usage logs older than a chosen moment (default one month ago, spec 000 §5) and says how many went. */
export function LogCleanup() {
  const { t } = useTranslation();
  const [before, setBefore] = useState<Dayjs | null>(() => dayjs().subtract(1, 'month'));
  const clear = useClearLogs();

  const run = () => {
    if (!before) {
      notify.error(t('setting.logs.time_required'));
      return;
    }
    clear.mutate(before.unix(), {
      onSuccess: (count) => notify.success(t('setting.logs.cleared', { count })),
    });
  };

  return (
    <Form.Item label={t('setting.logs.clear_label')} extra={t('setting.logs.clear_help')}>
      <Space wrap>
        <DatePicker
          showTime
          value={before}
          onChange={setBefore}
          aria-label={t('setting.logs.clear_label')}
          data-testid="log-clear-time"
        />
        <Popconfirm
          title={t('setting.logs.confirm_title')}
          description={t('setting.logs.confirm_text', { time: before?.format('YYYY-MM-DD HH:mm:ss') ?? '' })}
          okText={t('ui.delete')}
          okButtonProps={{ danger: true }}
          cancelText={t('ui.cancel')}
          onConfirm={run}
        >
          <Button danger icon={<DeleteOutlined />} loading={clear.isPending}>
            {t('setting.logs.clear')}
          </Button>
        </Popconfirm>
      </Space>
    </Form.Item>
  );
}
