import { DownloadOutlined } from '@ant-design/icons';
import { Button, Flex, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import type { TaskItem } from '../types';
import { ActionTag, PlatformTag, VideoShape } from './task-cells';

/**
 * A finished video, played in the page: the file comes from the gateway's same-origin route, which the console's
 * session may read, so the browser streams it (with ranges) without a key. Below it what was asked and what it cost.
 */
export function VideoPlayerModal({ task, onClose }: { task: TaskItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const url = task?.video?.content_url ?? null;
  return (
    <Modal
      open={task !== null && url !== null}
      title={t('task.video_title')}
      onCancel={onClose}
      width={820}
      centered
      destroyOnHidden
      footer={
        url && task ? (
          <Flex justify="end" gap={8} wrap>
            <Button onClick={onClose}>{t('task.video_close')}</Button>
            <Button
              type="primary"
              icon={<DownloadOutlined />}
              href={url}
              download={`${task.task_id}.mp4`}
              data-testid="task-video-modal-download"
            >
              {t('task.video_download')}
            </Button>
          </Flex>
        ) : null
      }
    >
      {task && url && task.video && (
        <Flex vertical gap={12}>
          <div className="task-video-stage">
            {/* biome-ignore lint/a11y/useMediaCaption: generated videos come without captions */}
            <video controls preload="metadata" playsInline src={url} data-testid="task-video-player">
              {t('task.video_unsupported')}
            </video>
          </div>
          <Flex gap={8} wrap align="center" className="task-video-facts">
            <PlatformTag platform={task.platform} />
            <ActionTag action={task.action} />
            <VideoShape video={task.video} />
            <Typography.Text type="secondary" className="nowrap">
              {t('task.video_cost', { cost: formatQuota(task.quota) })}
            </Typography.Text>
          </Flex>
          <Typography.Text type="secondary" className="mono-text task-video-id" copyable={{ text: task.task_id }}>
            {task.task_id}
          </Typography.Text>
        </Flex>
      )}
    </Modal>
  );
}
