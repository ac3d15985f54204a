import type { EChartsCoreOption } from 'echarts/core';
import { bucketLabel, type ChartData } from './aggregate';
import type { Granularity } from './types';

/** Brand indigo first, then colours that stay apart from each other on light and dark backgrounds. */
export const CHART_COLORS = [
  '#4f46e5',
  '#0ea5e9',
  '#10b981',
  '#f59e0b',
  '#ef4444',
  '#8b5cf6',
  '#ec4899',
  '#14b8a6',
  '#84cc16',
  '#f97316',
];

export interface ChartText {
  formatQuota: (quota: number) => string;
  /** Quota as a number on the value axis (dollars when the operator shows currency). */
  axisValue: (quota: number) => number;
  axisLabel: (value: number) => string;
  compact: boolean;
}

const tooltipBase = { confine: true, appendToBody: false };

/**
 * Time buckets along the bottom. The first and last labels are aligned inwards: centred on their tick, they ran past
 * the card's edge on a phone (containLabel only estimates label sizes from samples).
 */
const timeAxisLabel = { hideOverlap: true, alignMinLabel: 'left', alignMaxLabel: 'right' } as const;
/** Room on the right for a bar chart's last shown label, which is centred on a bar near the edge. */
const timeGrid = { left: 8, right: 28, top: 36, bottom: 8, containLabel: true };

/** Quota over time, one stacked bar series per model. */
export function quotaOverTimeOption(data: ChartData, granularity: Granularity, text: ChartText): EChartsCoreOption {
  return {
    color: CHART_COLORS,
    tooltip: {
      ...tooltipBase,
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value: number) => text.axisLabel(value),
    },
    legend: { type: 'scroll', top: 0, left: 0, right: 0 },
    grid: timeGrid,
    xAxis: {
      type: 'category',
      data: data.buckets.map((bucket) => bucketLabel(bucket, granularity)),
      axisLabel: timeAxisLabel,
    },
    yAxis: { type: 'value', axisLabel: { formatter: (value: number) => text.axisLabel(value) } },
    series: data.series.map((series) => ({
      name: series.model,
      type: 'bar',
      stack: 'quota',
      barMaxWidth: 28,
      emphasis: { focus: 'series' },
      data: series.quota.map(text.axisValue),
    })),
  };
}

/** Calls per model over time, as lines. */
export function callsOverTimeOption(data: ChartData, granularity: Granularity): EChartsCoreOption {
  return {
    color: CHART_COLORS,
    tooltip: { ...tooltipBase, trigger: 'axis' },
    legend: { type: 'scroll', top: 0, left: 0, right: 0 },
    grid: timeGrid,
    xAxis: {
      type: 'category',
      boundaryGap: false,
      data: data.buckets.map((bucket) => bucketLabel(bucket, granularity)),
      axisLabel: timeAxisLabel,
    },
    yAxis: { type: 'value', minInterval: 1 },
    series: data.series.map((series) => ({
      name: series.model,
      type: 'line',
      smooth: true,
      showSymbol: false,
      emphasis: { focus: 'series' },
      data: series.count,
    })),
  };
}

/** Each model's share of the quota in the range. */
export function modelShareOption(data: ChartData, text: ChartText): EChartsCoreOption {
  return {
    color: CHART_COLORS,
    tooltip: {
      ...tooltipBase,
      trigger: 'item',
      formatter: (item: { name: string; value: number; percent: number; marker: string }) =>
        `${item.marker}${escapeHtml(item.name)}<br/>${text.formatQuota(item.value)} (${item.percent}%)`,
    },
    legend: { type: 'scroll', bottom: 0, left: 0, right: 0 },
    series: [
      {
        type: 'pie',
        radius: text.compact ? ['35%', '62%'] : ['40%', '68%'],
        center: ['50%', '45%'],
        avoidLabelOverlap: true,
        itemStyle: { borderRadius: 4, borderWidth: 2, borderColor: 'rgba(0,0,0,0)' },
        label: { show: !text.compact, formatter: '{b}: {d}%' },
        data: data.models.map((model) => ({ name: model.model, value: model.quota })),
      },
    ],
  };
}

/** Model names come from callers: the tooltip's HTML must not run them. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
