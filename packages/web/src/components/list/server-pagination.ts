import { PAGE_SIZES } from '@gateway/shared';
import type { TablePaginationConfig } from 'antd/es/table';
import type { Dispatch, SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { writePageSize } from './page-size';

interface PagedQuery {
  page: number;
  pageSize: number;
}

/**
 * The pager of a list the server pages (`?p=&page_size=` with a total): sizes from the shared choices, a new size is
 * remembered and starts again at page 1, and the total is shown ("共 N 条" unless the page words it otherwise).
 */
export function useServerPagination<Query extends PagedQuery>(
  query: Query,
  setQuery: Dispatch<SetStateAction<Query>>,
  total: number,
  showTotal?: (total: number) => string,
): TablePaginationConfig {
  const { t } = useTranslation();
  return {
    current: query.page,
    pageSize: query.pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    showTotal: showTotal ?? ((count) => t('ui.total', { total: count })),
    onChange: (page, pageSize) => {
      if (pageSize !== query.pageSize) writePageSize(pageSize);
      setQuery((previous) => ({
        ...previous,
        page: pageSize !== previous.pageSize ? 1 : page,
        pageSize,
      }));
    },
  };
}
