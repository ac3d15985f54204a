import { Skeleton } from 'antd';

/** Placeholder for a page whose data or code is still on its way. */
export function PageLoading({ rows = 6 }: { rows?: number }) {
  return (
    <div className="page-container" data-testid="page-loading">
      <Skeleton active title paragraph={{ rows }} />
    </div>
  );
}
