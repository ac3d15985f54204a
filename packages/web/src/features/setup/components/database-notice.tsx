import type { SetupState } from '@gateway/shared';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

const DATABASE_NAMES: Record<SetupState['database_type'], string> = {
  sqlite: 'SQLite',
  postgres: 'PostgreSQL',
  mysql: 'MySQL',
};

/** SQLite keeps everything in one file: warn before the operator trusts it with a container's ephemeral disk. */
export function DatabaseNotice({ type }: { type: SetupState['database_type'] }) {
  const { t } = useTranslation();
  if (type === 'sqlite') {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('setup.sqlite_title')}
        description={t('setup.sqlite_desc')}
        data-testid="sqlite-warning"
      />
    );
  }
  return <Alert type="success" showIcon title={t('setup.database_ok', { name: DATABASE_NAMES[type] ?? type })} />;
}
