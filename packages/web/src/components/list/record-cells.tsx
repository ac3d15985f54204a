import { Button, Modal, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../hooks/use-copy-text';
import { elapsedSeconds } from './record-view';

/** Spec 001 §9: a drawing taking up to 60 s is fine (green), longer is slow (red); missing times read N/A. */
export const DURATION_FINE_SECONDS = 60;

export function DurationTag({ start, end, unit }: { start: number; end: number; unit: 'ms' | 's' }) {
  const { t } = useTranslation();
  const seconds = elapsedSeconds(start, end, unit);
  if (seconds === null) return <Tag data-testid="task-duration">{t('task.not_available')}</Tag>;
  return (
    <Tag color={seconds <= DURATION_FINE_SECONDS ? 'green' : 'red'} variant="filled" data-testid="task-duration">
      {t('task.seconds', { value: seconds })}
    </Tag>
  );
}

/** Admins: the channel id; a click copies it. */
export function ChannelTag({ id }: { id: number | undefined }) {
  const { t } = useTranslation();
  const { copy, fallback } = useCopyText();
  if (!id) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <>
      <Tooltip title={t('task.copy_channel')}>
        <Tag
          color="blue"
          variant="filled"
          className="task-clickable"
          onClick={() => void copy(String(id), t('task.copied'))}
          data-testid="task-channel"
        >
          {id}
        </Tag>
      </Tooltip>
      {fallback}
    </>
  );
}

const LONG_TEXT = 40;

/** Short reasons inline; a long one is cut and opens in full in a dialog. */
export function LongText({ text, title, testId }: { text: string | null | undefined; title: string; testId?: string }) {
  const [open, setOpen] = useState(false);
  if (!text) return <Typography.Text type="secondary">—</Typography.Text>;
  if (text.length <= LONG_TEXT) return <span data-testid={testId}>{text}</span>;
  return (
    <>
      <Button type="link" size="small" className="task-long-text" onClick={() => setOpen(true)} data-testid={testId}>
        {`${text.slice(0, LONG_TEXT)}…`}
      </Button>
      <Modal open={open} title={title} onCancel={() => setOpen(false)} footer={null}>
        <Typography.Paragraph className="task-modal-text">{text}</Typography.Paragraph>
      </Modal>
    </>
  );
}

/** A card's failure line (label and reason, in red): only on a task that failed. */
export function FailReasonFact({ reason, label }: { reason: string | null | undefined; label: string }) {
  if (!reason) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <Typography.Text type="danger">
          <LongText text={reason} title={label} />
        </Typography.Text>
      </dd>
    </>
  );
}
