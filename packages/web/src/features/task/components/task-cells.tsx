import { Progress, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { progressPercent } from '../../../components/list/record-view';
import { taskStatusInfo } from '../task-view';

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
