import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TaskItem } from '../types';

/** Spec 001: clicking a task id shows the whole record as JSON. */
export function TaskRecordModal({ task, onClose }: { task: TaskItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={task !== null} title={t('task.record_title')} onCancel={onClose} footer={null} width={720}>
      {task && (
        <Typography.Paragraph copyable={{ text: JSON.stringify(task, null, 2) }} className="task-json-wrap">
          <pre className="task-json" data-testid="task-record-json">
            {JSON.stringify(task, null, 2)}
          </pre>
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
