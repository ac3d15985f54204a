import { BarChartOutlined, ReloadOutlined } from '@ant-design/icons';
import { isAdmin, isRoot } from '@gateway/shared';
import { Alert, Button, Card, Empty, Flex, Skeleton, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicStatus } from '../../../hooks/use-status';
import { useSessionUser } from '../../../lib/session';
import { chartData, fitGranularity, tableRows, totalsOf } from '../aggregate';
import { useQuotaData } from '../api/use-quota-data';
import { CacheHitTable } from '../components/cache-hit-table';
import { DetailCharts } from '../components/detail-charts';
import { DetailFilters, type DetailFilterValues } from '../components/detail-filters';
import { DetailTable } from '../components/detail-table';
import { DetailTotals } from '../components/detail-totals';
import { GatewayFigures } from '../components/gateway-figures';
import '../detail.css';
import { ZeroBalanceHint } from '../../../components/zero-balance-hint';
import { queryStart, quickRange } from '../detail-range';
import { type DetailQuery, type Granularity, isGranularity } from '../types';

function toQuery(values: DetailFilterValues): DetailQuery {
  return { start: queryStart(values.start), end: values.end.unix(), username: values.username.trim() };
}

/**
 * The dashboard (spec 001, /detail): consumption aggregated per hour by the server (`quota_data`), regrouped here
 * by hour, day or week. Admins see every user (or one, by username); others their own.
 */
export default function DetailPage() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const role = useSessionUser()?.role;
  const admin = isAdmin(role);
  // Unknown until the status arrives: neither ask for data nor claim the dashboard is off before then.
  const exportEnabled = status.enable_data_export === true;
  const exportDisabled = status.enable_data_export === false;
  const [initial] = useState<DetailFilterValues>(() => {
    const [start, end] = quickRange('7d', dayjs());
    return { start, end, username: '' };
  });
  const [query, setQuery] = useState<DetailQuery>(() => toQuery(initial));
  const [chosenGranularity, setGranularity] = useState<Granularity | null>(null);
  // Until the user picks one, the operator's default (which may arrive with the status after the first paint).
  const wanted =
    chosenGranularity ?? (isGranularity(status.data_export_default_time) ? status.data_export_default_time : 'hour');

  const data = useQuotaData(query, admin, exportEnabled);
  const rows = data.data?.rows;
  const shown = data.data?.query ?? query;
  const granularity = fitGranularity(wanted, shown.start, shown.end);
  const totals = useMemo(() => (rows ? totalsOf(rows, shown.start, shown.end) : null), [rows, shown]);
  const charts = useMemo(
    () => (rows ? chartData(rows, shown.start, shown.end, granularity) : null),
    [rows, shown, granularity],
  );
  const table = useMemo(() => (rows ? tableRows(rows, granularity) : []), [rows, granularity]);

  let body: ReactNode;
  if (!exportEnabled && !exportDisabled) {
    body = (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  } else if (exportDisabled) {
    body = (
      <Card>
        <Empty
          image={<BarChartOutlined className="empty-icon" />}
          description={
            <Flex vertical gap={4} align="center">
              <Typography.Text strong>{t('detail.disabled')}</Typography.Text>
              <Typography.Text type="secondary">
                {admin ? t('detail.disabled_admin_hint') : t('detail.disabled_hint')}
              </Typography.Text>
            </Flex>
          }
          data-testid="detail-disabled"
        />
      </Card>
    );
  } else if (data.isError && !rows) {
    body = (
      <Card>
        <Empty description={(data.error as Error).message || t('detail.load_failed')}>
          <Button icon={<ReloadOutlined />} onClick={() => void data.refetch()}>
            {t('common.retry')}
          </Button>
        </Empty>
      </Card>
    );
  } else {
    body = (
      <Flex vertical gap={16}>
        <DetailTotals totals={totals} />
        {!rows ? (
          <Card>
            <Skeleton active paragraph={{ rows: 8 }} />
          </Card>
        ) : rows.length === 0 ? (
          <Card>
            <Empty
              image={<BarChartOutlined className="empty-icon" />}
              description={t('detail.empty')}
              data-testid="detail-empty"
            />
          </Card>
        ) : (
          <>
            <DetailCharts data={charts!} granularity={granularity} />
            <DetailTable rows={table} granularity={granularity} admin={admin} range={shown} />
            <CacheHitTable query={shown} admin={admin} />
          </>
        )}
      </Flex>
    );
  }

  return (
    <div className="page-container page-container-wide detail-page">
      <Flex vertical gap={16}>
        <Flex justify="space-between" align="flex-start" gap={12}>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('detail.title')}
            </Typography.Title>
            <Typography.Text type="secondary">
              {admin ? t('detail.subtitle_admin') : t('detail.subtitle')}
            </Typography.Text>
          </div>
          {exportEnabled && (
            <Tooltip title={t('detail.refresh')}>
              <Button
                icon={<ReloadOutlined spin={data.isFetching} />}
                onClick={() => void data.refetch()}
                aria-label={t('detail.refresh')}
              />
            </Tooltip>
          )}
        </Flex>
        <ZeroBalanceHint />
        {isRoot(role) && <GatewayFigures />}
        {exportEnabled && (
          <Card size="small">
            <DetailFilters
              initial={initial}
              admin={admin}
              granularity={wanted}
              onGranularity={setGranularity}
              searching={data.isFetching && !data.isPending}
              onApply={(values) => setQuery(toQuery(values))}
            />
          </Card>
        )}
        {data.isError && rows && <Alert type="error" showIcon title={(data.error as Error).message} />}
        {exportEnabled && granularity !== wanted && (
          <Alert
            type="info"
            showIcon
            title={t('detail.coarsened', { granularity: t(`detail.granularity_${granularity}`) })}
          />
        )}
        {body}
      </Flex>
    </div>
  );
}
