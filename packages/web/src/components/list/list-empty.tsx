import { ReloadOutlined } from '@ant-design/icons';
import { Button, Empty } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ListEmptyProps {
  /** The list failed to load: say so (`failedText`) and offer a retry instead of pretending it is empty. */
  failed: boolean;
  failedText: string;
  onRetry: () => void;
  /** Filters are applied: "nothing matches" rather than the first-visit invitation. */
  filtered?: boolean;
  noMatchText?: string;
  icon: ReactNode;
  emptyText: string;
  /** What to do on an empty list (usually "create the first one"). */
  children?: ReactNode;
}

/** What a console list shows instead of rows: a load failure with retry, no match for the filters, or nothing yet. */
export function ListEmpty({
  failed,
  failedText,
  onRetry,
  filtered,
  noMatchText,
  icon,
  emptyText,
  children,
}: ListEmptyProps) {
  const { t } = useTranslation();
  if (failed) {
    return (
      <Empty description={failedText}>
        <Button icon={<ReloadOutlined />} onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </Empty>
    );
  }
  if (filtered) return <Empty description={noMatchText} />;
  return (
    <Empty image={icon} description={emptyText}>
      {children}
    </Empty>
  );
}
