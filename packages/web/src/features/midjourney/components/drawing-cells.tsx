import { PictureOutlined } from '@ant-design/icons';
import { Image, Progress, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { progressPercent } from '../../../components/list/record-view';
import { actionLook, codeLook, statusLook } from '../midjourney-view';
import type { DrawingItem } from '../types';

export function ActionTag({ action }: { action: string }) {
  const { t } = useTranslation();
  const look = actionLook(action);
  return (
    <Tag color={look.color} data-testid="drawing-action">
      {t(look.labelKey)}
    </Tag>
  );
}

export function SubmitCodeTag({ code }: { code: number }) {
  const { t } = useTranslation();
  const look = codeLook(code);
  return <Tag color={look.color}>{t(look.labelKey)}</Tag>;
}

export function DrawingStatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  const look = statusLook(status);
  return (
    <Tag color={look.color} data-testid="drawing-status">
      {t(look.labelKey)}
    </Tag>
  );
}

/** A progress bar; a failed task shows it in the warning colour (spec 001). */
export function DrawingProgress({ drawing }: { drawing: DrawingItem }) {
  const { token } = theme.useToken();
  const percent = progressPercent(drawing.progress) ?? 0;
  const failed = drawing.status === 'FAILURE';
  return (
    <Progress
      percent={percent}
      size="small"
      status={failed ? 'normal' : percent >= 100 ? 'success' : 'active'}
      strokeColor={failed ? token.colorWarning : undefined}
      format={failed ? () => <span style={{ color: token.colorWarning }}>{drawing.progress}</span> : undefined}
      className="drawing-progress"
      data-testid="drawing-progress"
      data-failed={failed ? 'true' : undefined}
    />
  );
}

/** The result image as a thumbnail; a click opens the viewer. */
export function DrawingImage({ drawing, size = 64 }: { drawing: DrawingItem; size?: number }) {
  const { t } = useTranslation();
  if (!drawing.image_url) {
    return (
      <span className="drawing-no-image" style={{ width: size, height: size }} title={t('midjourney.no_image')}>
        <PictureOutlined aria-hidden />
      </span>
    );
  }
  return (
    <Image
      src={drawing.image_url}
      width={size}
      height={size}
      className="drawing-image"
      alt={t('midjourney.image_alt', { id: drawing.mj_id })}
      data-testid="drawing-image"
      preview={{ mask: t('midjourney.preview') }}
    />
  );
}

export function MonoId({ id }: { id: string }) {
  if (!id) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Typography.Text className="drawing-id" copyable={{ text: id }}>
      {id}
    </Typography.Text>
  );
}
