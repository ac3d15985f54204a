import { isAdmin } from '@gateway/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFilterBar } from '../../../components/list/list-filter-bar';
import { ListPageFrame } from '../../../components/list/list-page-frame';
import { usePageSize } from '../../../components/list/page-size';
import { useSessionUser } from '../../../lib/session';
import { useIsMobile } from '../../../lib/use-media-query';
import { useTasks } from '../api/use-tasks';
import { TaskCards, TaskTable } from '../components/task-list';
import { TaskRecordModal } from '../components/task-record-modal';
import { VideoPlayerModal } from '../components/video-player-modal';
import '../../../components/list/records.css';
import { defaultTaskFilters } from '../task-view';
import type { TaskItem } from '../types';

/** Task log (/task, spec 001): the caller's async tasks (Suno, video), or everyone's for an admin. */
export default function TaskPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const admin = isAdmin(useSessionUser()?.role);
  const [initial] = useState(() => defaultTaskFilters());
  const [filters, setFilters] = useState(initial);
  const [pageSize, setPageSize] = usePageSize();
  const pager = useTasks(filters, admin, pageSize);
  const [opened, setOpened] = useState<TaskItem | null>(null);
  const [playing, setPlaying] = useState<TaskItem | null>(null);
  const List = isMobile ? TaskCards : TaskTable;
  return (
    <>
      <ListPageFrame
        title={t('task.title')}
        subtitle={admin ? t('task.subtitle_admin') : t('task.subtitle')}
        filters={
          <ListFilterBar
            initial={initial}
            admin={admin}
            idLabel={t('task.filter_task_id')}
            searching={pager.query.isFetching && !pager.query.isPending}
            defaults={() => defaultTaskFilters()}
            onApply={setFilters}
            testId="task-filters"
          />
        }
        pager={pager}
        pageSize={pageSize}
        onPageSize={setPageSize}
        emptyText={t('task.empty')}
        skeletonTestId="task-skeleton"
      >
        {({ pagination, empty }) => (
          <List
            tasks={pager.pageItems}
            admin={admin}
            loading={pager.query.isFetching}
            pagination={pagination}
            empty={empty}
            onOpenTask={setOpened}
            onPlayVideo={setPlaying}
          />
        )}
      </ListPageFrame>
      <TaskRecordModal task={opened} onClose={() => setOpened(null)} />
      <VideoPlayerModal task={playing} onClose={() => setPlaying(null)} />
    </>
  );
}
