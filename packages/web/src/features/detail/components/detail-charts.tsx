import { Card, Col, Row } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { quotaDisplayFrom } from '../../../lib/quota';
import { useIsMobile } from '../../../lib/use-media-query';
import type { ChartData } from '../aggregate';
import { type ChartText, callsOverTimeOption, modelShareOption, quotaOverTimeOption } from '../chart-options';
import type { Granularity } from '../types';
import { EChart } from './echart';

interface DetailChartsProps {
  data: ChartData;
  granularity: Granularity;
}

/** Quota over time stacked by model, calls by model over time, and each model's share of the quota. */
export function DetailCharts({ data, granularity }: DetailChartsProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit, displayInCurrency } = quotaDisplayFrom(usePublicStatus());

  const text: ChartText = useMemo(
    () => ({
      formatQuota,
      // Dollars on the axis when the operator shows currency; raw quota otherwise.
      axisValue: (quota) => (displayInCurrency ? Number((quota / quotaPerUnit).toFixed(6)) : quota),
      axisLabel: (value) => (displayInCurrency ? `$${Number(value.toFixed(4))}` : value.toLocaleString()),
      compact: isMobile,
    }),
    [formatQuota, displayInCurrency, quotaPerUnit, isMobile],
  );
  const quotaOption = useMemo(() => quotaOverTimeOption(data, granularity, text), [data, granularity, text]);
  const callsOption = useMemo(() => callsOverTimeOption(data, granularity), [data, granularity]);
  const shareOption = useMemo(() => modelShareOption(data, text), [data, text]);
  const height = isMobile ? 260 : 340;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24}>
        <Card size="small" title={t('detail.chart_quota')} className="detail-chart-card">
          <EChart option={quotaOption} height={height} label={t('detail.chart_quota')} testId="detail-chart-quota" />
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Card size="small" title={t('detail.chart_calls')} className="detail-chart-card">
          <EChart option={callsOption} height={height} label={t('detail.chart_calls')} testId="detail-chart-calls" />
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Card size="small" title={t('detail.chart_share')} className="detail-chart-card">
          <EChart option={shareOption} height={height} label={t('detail.chart_share')} testId="detail-chart-share" />
        </Card>
      </Col>
    </Row>
  );
}
