import { useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Modal, Progress, Statistic, Table, Tag, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { channelsQueryKey } from '../api/use-channels';
import { useTestProgress } from '../api/use-test-progress';
import type { TestAllProgress } from '../types';

type Result = TestAllProgress['results'][number];

/** "Test all": a progress bar polled every second while the run goes, then every channel's outcome. */
export function TestProgressModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const progress = useTestProgress(open);
  const data = progress.data;
  const running = data?.running ?? true;
  const wasRunning = useRef(false);

  // Each finished run changed statuses and response times: refresh the list once, when it ends.
  useEffect(() => {
    if (running) wasRunning.current = true;
    else if (wasRunning.current) {
      wasRunning.current = false;
      void queryClient.invalidateQueries({ queryKey: channelsQueryKey });
    }
  }, [running, queryClient]);

  const total = data?.total ?? 0;
  const done = data?.done ?? 0;
  const failed = data?.failed ?? 0;
  const percent = total > 0 ? Math.round((done / total) * 100) : running ? 0 : 100;

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('channel.test_all_title')}
      width={760}
      footer={<Button onClick={onClose}>{t('ui.close')}</Button>}
      destroyOnHidden
    >
      <div data-testid="test-progress">
        <Progress
          percent={percent}
          status={running ? 'active' : failed > 0 ? 'exception' : 'success'}
          aria-label={t('channel.test_all_title')}
        />
        <Flex gap={32} wrap style={{ margin: '12px 0 16px' }}>
          <Statistic title={t('channel.test_done')} value={done} suffix={`/ ${total}`} />
          <Statistic title={t('channel.test_passed')} value={Math.max(done - failed, 0)} />
          <Statistic title={t('channel.test_failed')} value={failed} />
        </Flex>
        <Typography.Paragraph type="secondary">
          {running ? t('channel.test_running') : t('channel.test_finished')}
        </Typography.Paragraph>
        <Table<Result>
          rowKey="id"
          size="small"
          dataSource={data?.results ?? []}
          pagination={false}
          scroll={{ y: 320, x: 'max-content' }}
          loading={progress.isPending}
          columns={[
            { key: 'id', title: t('channel.col_id'), dataIndex: 'id', width: 64 },
            { key: 'name', title: t('channel.col_name'), dataIndex: 'name' },
            {
              key: 'success',
              title: t('channel.test_result'),
              render: (_, result) =>
                result.success ? (
                  <Tag color="green" variant="filled">
                    {t('channel.test_ok')}
                  </Tag>
                ) : (
                  <Tag color="red" variant="filled">
                    {t('channel.test_fail')}
                  </Tag>
                ),
            },
            {
              key: 'time',
              title: t('channel.col_response_time'),
              render: (_, result) => t('channel.seconds', { value: result.time.toFixed(2) }),
            },
            {
              key: 'message',
              title: t('channel.test_message'),
              dataIndex: 'message',
              render: (message: string) => (
                <Typography.Text type="secondary" ellipsis={{ tooltip: message }} style={{ maxWidth: 280 }}>
                  {message || '—'}
                </Typography.Text>
              ),
            },
          ]}
        />
      </div>
    </Modal>
  );
}
