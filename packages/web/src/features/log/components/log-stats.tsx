import { ReloadOutlined } from '@ant-design/icons';
import { Button, Flex, Skeleton, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import type { LogStat } from '../types';

interface LogStatsProps {
  stat: LogStat | undefined;
  loading: boolean;
  failed: boolean;
  onRefresh: () => void;
}

/** Quota used, RPM and TPM for the current filters. */
export function LogStats({ stat, loading, failed, onRefresh }: LogStatsProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const formatQuota = useFormatQuota();

  const item = (key: string, label: string, value: string) => (
    <div className="log-stat" data-testid={`log-stat-${key}`}>
      <Typography.Text type="secondary" className="log-stat-label">
        {label}
      </Typography.Text>
      <Typography.Text strong className="log-stat-value">
        {value}
      </Typography.Text>
    </div>
  );

  return (
    <Flex
      className="log-stats"
      align="center"
      gap={12}
      wrap
      data-testid="log-stats"
      style={{ background: token.colorFillQuaternary, borderColor: token.colorBorderSecondary }}
    >
      {stat === undefined && loading ? (
        <Skeleton.Input active size="small" style={{ width: 280 }} />
      ) : failed && !stat ? (
        <Typography.Text type="danger">{t('log.stat_failed')}</Typography.Text>
      ) : (
        <>
          {item('quota', t('log.stat_quota'), formatQuota(stat?.quota ?? 0))}
          {item('rpm', 'RPM', String(stat?.rpm ?? 0))}
          {item('tpm', 'TPM', String(stat?.tpm ?? 0))}
        </>
      )}
      <Tooltip title={t('log.refresh')}>
        <Button
          type="text"
          size="small"
          icon={<ReloadOutlined spin={loading} />}
          onClick={onRefresh}
          aria-label={t('log.refresh')}
          className="log-stats-refresh"
        />
      </Tooltip>
    </Flex>
  );
}
