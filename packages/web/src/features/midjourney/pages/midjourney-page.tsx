import { isAdmin } from '@gateway/shared';
import { Alert } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListFilterBar } from '../../../components/list/list-filter-bar';
import { ListPageFrame } from '../../../components/list/list-page-frame';
import { usePageSize } from '../../../components/list/page-size';
import { useSessionUser } from '../../../lib/session';
import { readFlag } from '../../../lib/storage';
import { STORAGE_KEYS } from '../../../lib/storage-keys';
import { useIsMobile } from '../../../lib/use-media-query';
import '../../../components/list/records.css';
import { useDrawings } from '../api/use-drawings';
import { DrawingCards, DrawingTable } from '../components/drawing-list';
import '../midjourney.css';
import { defaultDrawingFilters } from '../midjourney-view';

/** Drawing log (/midjourney, spec 001): the caller's Midjourney tasks with their pictures, or everyone's for admins. */
export default function MidjourneyPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const admin = isAdmin(useSessionUser()?.role);
  const [initial] = useState(() => defaultDrawingFilters());
  const [filters, setFilters] = useState(initial);
  const [pageSize, setPageSize] = usePageSize();
  const pager = useDrawings(filters, admin, pageSize);
  const List = isMobile ? DrawingCards : DrawingTable;
  // The status call stores the operator's MjNotifyEnabled switch locally (spec 001 local storage keys).
  const notifyOff = admin && !readFlag(STORAGE_KEYS.mjNotifyEnabled);
  return (
    <ListPageFrame
      title={t('midjourney.title')}
      subtitle={admin ? t('midjourney.subtitle_admin') : t('midjourney.subtitle')}
      banner={
        notifyOff ? (
          <Alert type="warning" showIcon title={t('midjourney.notify_banner')} data-testid="drawing-notify-banner" />
        ) : null
      }
      filters={
        <ListFilterBar
          initial={initial}
          admin={admin}
          idLabel={t('midjourney.filter_task_id')}
          searching={pager.query.isFetching && !pager.query.isPending}
          defaults={() => defaultDrawingFilters()}
          onApply={setFilters}
          testId="drawing-filters"
        />
      }
      pager={pager}
      pageSize={pageSize}
      onPageSize={setPageSize}
      emptyText={t('midjourney.empty')}
      skeletonTestId="drawing-skeleton"
    >
      {({ pagination, empty }) => (
        <List
          drawings={pager.pageItems}
          admin={admin}
          loading={pager.query.isFetching}
          pagination={pagination}
          empty={empty}
        />
      )}
    </ListPageFrame>
  );
}
