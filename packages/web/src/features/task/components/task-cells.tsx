import { DeleteOutlined, DownloadOutlined, PlayCircleFilled } from '@ant-design/icons';
import type { TaskVideoView } from '@gateway/shared';
import { channelType } from '@gateway/shared';
import { Button, Flex, Progress, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { progressPercent } from '../../../components/list/record-view';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { taskActionInfo, taskStatusInfo, videoShapeParts } from '../task-view';
import type { TaskItem } from '../types';

export function TaskStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  const info = taskStatusInfo(status);
  return (
    <Tag color={info.color} data-testid="task-status">
      {t(info.labelKey)}
    </Tag>
  );
}

/** A small progress circle, or the raw text when the upstream reports something that is not a percentage. */
export function ProgressCircle({ progress, failed }: { progress: string; failed: boolean }) {
  const percent = progressPercent(progress);
  if (percent === null) return <span>{progress || '—'}</span>;
  return (
    <Progress
      type="circle"
      size={36}
      percent={percent}
      status={failed ? 'exception' : percent >= 100 ? 'success' : 'active'}
      data-testid="task-progress"
    />
  );
}

/** Suno by name; a video task's platform is its channel type's number, shown by that type's label and colour. */
export function PlatformTag({ platform }: { platform: string }) {
  const { t } = useTranslation();
  if (platform === 'suno') return <Tag color="magenta">Suno</Tag>;
  const info = channelType(platform);
  return (
    <Tag color={info?.color ?? 'default'} data-testid="task-platform">
      {info?.label ?? (platform || t('task.unknown'))}
    </Tag>
  );
}

export function ActionTag({ action }: { action: string }) {
  const { t } = useTranslation();
  const info = taskActionInfo(action);
  return (
    <Tag color={info.color} data-testid="task-action">
      {info.labelKey ? t(info.labelKey) : action || t('task.unknown')}
    </Tag>
  );
}

/** `1280x720` reads as `1280×720`. */
const frameText = (part: string) => part.replace(/^(\d+)\s*[xX*]\s*(\d+)$/, '$1×$2');

/** What a video task asked for: its length and its frame (size, resolution, aspect ratio), e.g. "8 s · 1280×720". */
export function VideoShape({ video }: { video: TaskVideoView }) {
  const { t } = useTranslation();
  const { seconds, frame } = videoShapeParts(video);
  const parts = [...(seconds !== null ? [t('task.seconds', { value: seconds })] : []), ...frame.map(frameText)];
  if (parts.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <span className="nowrap" data-testid="task-video-shape">
      {parts.join(' · ')}
    </span>
  );
}

/** What the task cost, in the operator's display unit (the raw quota on hover). */
export function TaskCost({ quota }: { quota: number }) {
  const formatQuota = useFormatQuota();
  return (
    <span className="nowrap" title={String(quota)} data-testid="task-cost">
      {formatQuota(quota)}
    </span>
  );
}

/**
 * A video task's result: a thumbnail that opens the player, and a download link, once it is finished; "deleted"
 * when its owner removed it; a dash while it is not ready (or failed).
 */
export function VideoResult({ task, onPlay }: { task: TaskItem; onPlay: (task: TaskItem) => void }) {
  const { t } = useTranslation();
  const video = task.video;
  if (!video) return <Typography.Text type="secondary">—</Typography.Text>;
  if (video.deleted) {
    return (
      <Typography.Text type="secondary" className="nowrap" data-testid="task-video-deleted">
        <DeleteOutlined aria-hidden /> {t('task.video_deleted')}
      </Typography.Text>
    );
  }
  if (!video.content_url) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex align="center" gap={8}>
      <button
        type="button"
        className="task-video-thumb"
        onClick={() => onPlay(task)}
        aria-label={t('task.video_play_named', { id: task.task_id })}
        data-testid="task-video-play"
      >
        <video src={`${video.content_url}#t=0.1`} preload="metadata" muted playsInline tabIndex={-1} aria-hidden />
        <PlayCircleFilled className="task-video-thumb-icon" aria-hidden />
      </button>
      <Tooltip title={t('task.video_download')}>
        <Button
          size="small"
          icon={<DownloadOutlined />}
          href={video.content_url}
          download={`${task.task_id}.mp4`}
          aria-label={t('task.video_download')}
          data-testid="task-video-download"
        />
      </Tooltip>
    </Flex>
  );
}
