import { Flex, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../../components/list/list-table';
import { ChannelFact, RecordCardList } from '../../../components/list/record-card-list';
import { ChannelTag, DurationTag, FailReasonFact, LongText } from '../../../components/list/record-cells';
import { formatTime } from '../../../components/list/record-view';
import type { DrawingItem } from '../types';
import { ActionTag, DrawingImage, DrawingProgress, DrawingStatusTag, MonoId, SubmitCodeTag } from './drawing-cells';

export interface DrawingListProps {
  drawings: DrawingItem[];
  admin: boolean;
  loading: boolean;
  pagination: TablePaginationConfig;
  empty: ReactNode;
}

/** Drawing tasks on a wide screen (spec 001 columns; channel, submit result and status for admins). */
export function DrawingTable({ drawings, admin, loading, pagination, empty }: DrawingListProps) {
  const { t } = useTranslation();
  const adminOnly = (columns: ColumnsType<DrawingItem>) => (admin ? columns : []);
  const columns: ColumnsType<DrawingItem> = [
    {
      key: 'submit',
      title: t('midjourney.col_submit_time'),
      render: (_, drawing) => <span className="nowrap">{formatTime(drawing.submit_time, 'ms')}</span>,
    },
    {
      key: 'duration',
      title: t('midjourney.col_duration'),
      render: (_, drawing) => <DurationTag start={drawing.submit_time} end={drawing.finish_time} unit="ms" />,
    },
    ...adminOnly([
      {
        key: 'channel',
        title: t('midjourney.col_channel'),
        render: (_, drawing) => <ChannelTag id={drawing.channel_id} />,
      },
    ]),
    { key: 'action', title: t('midjourney.col_action'), render: (_, drawing) => <ActionTag action={drawing.action} /> },
    { key: 'mj_id', title: t('midjourney.col_task_id'), render: (_, drawing) => <MonoId id={drawing.mj_id} /> },
    ...adminOnly([
      { key: 'code', title: t('midjourney.col_code'), render: (_, drawing) => <SubmitCodeTag code={drawing.code} /> },
      {
        key: 'status',
        title: t('midjourney.col_status'),
        render: (_, drawing) => <DrawingStatusTag status={drawing.status} />,
      },
    ]),
    {
      key: 'progress',
      title: t('midjourney.col_progress'),
      width: 140,
      render: (_, drawing) => <DrawingProgress drawing={drawing} />,
    },
    { key: 'image', title: t('midjourney.col_image'), render: (_, drawing) => <DrawingImage drawing={drawing} /> },
    {
      key: 'prompt',
      title: 'Prompt',
      render: (_, drawing) => <LongText text={drawing.prompt} title="Prompt" />,
    },
    {
      key: 'prompt_en',
      title: 'PromptEn',
      render: (_, drawing) => <LongText text={drawing.prompt_en} title="PromptEn" />,
    },
    {
      key: 'fail',
      title: t('midjourney.col_fail_reason'),
      render: (_, drawing) => (
        <LongText text={drawing.fail_reason} title={t('midjourney.col_fail_reason')} testId="drawing-fail-reason" />
      ),
    },
  ];
  return (
    <ListTable<DrawingItem>
      testId="drawing-table"
      empty={empty}
      size="small"
      columns={columns}
      dataSource={drawings}
      loading={loading}
      pagination={pagination}
    />
  );
}

/** Drawing tasks on a phone: the picture beside its facts. */
export function DrawingCards({ drawings, admin, loading, pagination, empty }: DrawingListProps) {
  const { t } = useTranslation();
  return (
    <RecordCardList
      items={drawings}
      loading={loading}
      pagination={pagination}
      empty={empty}
      testId="drawing-table"
      head={(drawing) => (
        <Flex gap={12} align="flex-start">
          <DrawingImage drawing={drawing} size={72} />
          <Flex vertical gap={6} className="drawing-card-main">
            <Flex gap={6} wrap align="center">
              <ActionTag action={drawing.action} />
              {admin && <DrawingStatusTag status={drawing.status} />}
              <DurationTag start={drawing.submit_time} end={drawing.finish_time} unit="ms" />
            </Flex>
            <Typography.Text type="secondary" className="drawing-card-time">
              {formatTime(drawing.submit_time, 'ms')}
            </Typography.Text>
            <DrawingProgress drawing={drawing} />
          </Flex>
        </Flex>
      )}
      facts={(drawing) => (
        <>
          <dt>{t('midjourney.col_task_id')}</dt>
          <dd>
            <MonoId id={drawing.mj_id} />
          </dd>
          {admin && (
            <>
              <ChannelFact id={drawing.channel_id} label={t('midjourney.col_channel')} />
              <dt>{t('midjourney.col_code')}</dt>
              <dd>
                <SubmitCodeTag code={drawing.code} />
              </dd>
            </>
          )}
          <dt>Prompt</dt>
          <dd>
            <LongText text={drawing.prompt} title="Prompt" />
          </dd>
          <FailReasonFact reason={drawing.fail_reason} label={t('midjourney.col_fail_reason')} />
        </>
      )}
    />
  );
}
