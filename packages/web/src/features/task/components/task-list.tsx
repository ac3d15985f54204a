import { Button, Flex, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/list/list-table';
import { ChannelFact, RecordCardList } from '../../../components/list/record-card-list';
import { ChannelTag, DurationTag, FailReasonFact, LongText } from '../../../components/list/record-cells';
import { formatTime } from '../../../components/list/record-view';
import type { TaskItem } from '../types';
import { ActionTag, PlatformTag, ProgressCircle, TaskCost, TaskStatusTag, VideoResult, VideoShape } from './task-cells';

export interface TaskListProps {
  tasks: TaskItem[];
  admin: boolean;
  loading: boolean;
  pagination: TablePaginationConfig;
  empty: ReactNode;
  onOpenTask: (task: TaskItem) => void;
  /** Opens a finished video's player. */
  onPlayVideo: (task: TaskItem) => void;
}

function TaskIdButton({ task, onOpen }: { task: TaskItem; onOpen: (task: TaskItem) => void }) {
  const { t } = useTranslation();
  return (
    <Button
      type="link"
      size="small"
      className="task-id-button mono-text"
      onClick={() => onOpen(task)}
      aria-label={t('task.open_record', { id: task.task_id })}
    >
      {task.task_id}
    </Button>
  );
}

function TaskShape({ task }: { task: TaskItem }) {
  if (!task.video) return <Typography.Text type="secondary">—</Typography.Text>;
  return <VideoShape video={task.video} />;
}

/** Async tasks on a wide screen (spec 001 columns). */
export function TaskTable({ tasks, admin, loading, pagination, empty, onOpenTask, onPlayVideo }: TaskListProps) {
  const { t } = useTranslation();
  const columns: ColumnsType<TaskItem> = [
    {
      key: 'submit',
      title: t('task.col_submit_time'),
      render: (_, task) => <span className="nowrap">{formatTime(task.submit_time, 's')}</span>,
    },
    {
      key: 'finish',
      title: t('task.col_finish_time'),
      render: (_, task) => <span className="nowrap">{formatTime(task.finish_time, 's') || '—'}</span>,
    },
    {
      key: 'progress',
      title: t('task.col_progress'),
      render: (_, task) => <ProgressCircle progress={task.progress} failed={task.status === 'FAILURE'} />,
    },
    {
      key: 'duration',
      title: t('task.col_duration'),
      render: (_, task) => <DurationTag start={task.submit_time} end={task.finish_time} unit="s" />,
    },
    ...(admin
      ? ([
          { key: 'channel', title: t('task.col_channel'), render: (_, task) => <ChannelTag id={task.channel_id} /> },
        ] satisfies ColumnsType<TaskItem>)
      : []),
    { key: 'platform', title: t('task.col_platform'), render: (_, task) => <PlatformTag platform={task.platform} /> },
    { key: 'action', title: t('task.col_action'), render: (_, task) => <ActionTag action={task.action} /> },
    { key: 'status', title: t('task.col_status'), render: (_, task) => <TaskStatusTag status={task.status} /> },
    // Video columns only when the page holds a video (a Suno-only log keeps its width), and before the long id,
    // so a finished video's player is in view without scrolling sideways.
    ...(tasks.some((task) => task.video)
      ? ([
          {
            key: 'result',
            title: t('task.col_result'),
            render: (_, task) => <VideoResult task={task} onPlay={onPlayVideo} />,
          },
          { key: 'shape', title: t('task.col_video'), render: (_, task) => <TaskShape task={task} /> },
        ] satisfies ColumnsType<TaskItem>)
      : []),
    { key: 'cost', title: t('task.col_cost'), render: (_, task) => <TaskCost quota={task.quota} /> },
    {
      key: 'task_id',
      title: t('task.col_task_id'),
      render: (_, task) => <TaskIdButton task={task} onOpen={onOpenTask} />,
    },
    {
      key: 'fail',
      title: t('task.col_fail_reason'),
      render: (_, task) => <LongText text={task.fail_reason} title={t('task.col_fail_reason')} />,
    },
  ];
  return (
    <ListTable<TaskItem>
      testId="task-table"
      empty={empty}
      size="small"
      columns={columns}
      dataSource={tasks}
      loading={loading}
      pagination={pagination}
    />
  );
}

/** Async tasks on a phone: one card each. */
export function TaskCards({ tasks, admin, loading, pagination, empty, onOpenTask, onPlayVideo }: TaskListProps) {
  const { t } = useTranslation();
  return (
    <RecordCardList
      items={tasks}
      loading={loading}
      pagination={pagination}
      empty={empty}
      testId="task-table"
      head={(task) => (
        <Flex justify="space-between" align="center" gap={8}>
          <Flex gap={6} wrap align="center">
            <PlatformTag platform={task.platform} />
            <ActionTag action={task.action} />
            <TaskStatusTag status={task.status} />
          </Flex>
          <ProgressCircle progress={task.progress} failed={task.status === 'FAILURE'} />
        </Flex>
      )}
      facts={(task) => (
        <>
          <dt>{t('task.col_task_id')}</dt>
          <dd>
            <TaskIdButton task={task} onOpen={onOpenTask} />
          </dd>
          <dt>{t('task.col_submit_time')}</dt>
          <dd>{formatTime(task.submit_time, 's')}</dd>
          <dt>{t('task.col_duration')}</dt>
          <dd>
            <DurationTag start={task.submit_time} end={task.finish_time} unit="s" />
          </dd>
          {task.video && (
            <>
              <dt>{t('task.col_video')}</dt>
              <dd>
                <VideoShape video={task.video} />
              </dd>
            </>
          )}
          <dt>{t('task.col_cost')}</dt>
          <dd>
            <TaskCost quota={task.quota} />
          </dd>
          {admin && <ChannelFact id={task.channel_id} label={t('task.col_channel')} />}
          {task.video && (task.video.content_url || task.video.deleted) && (
            <>
              <dt>{t('task.col_result')}</dt>
              <dd>
                <VideoResult task={task} onPlay={onPlayVideo} />
              </dd>
            </>
          )}
          <FailReasonFact reason={task.fail_reason} label={t('task.col_fail_reason')} />
        </>
      )}
    />
  );
}
