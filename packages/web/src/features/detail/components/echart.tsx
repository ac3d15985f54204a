import { Skeleton, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../../app/theme/theme-mode';

type Library = typeof import('./echarts-setup');

// One import for every chart on the page; the library is fetched when the first chart mounts, not before.
let library: Promise<Library> | null = null;
const loadLibrary = () => {
  library ??= import('./echarts-setup');
  library.catch(() => {
    library = null; // a failed chunk load may succeed on the next try
  });
  return library;
};

interface EChartProps {
  option: EChartsCoreOption;
  height: number;
  /** Accessible name of the picture (charts are canvases). */
  label: string;
  testId?: string;
}

/**
 * A small React wrapper around ECharts: loads the library lazily, follows the console's light/dark mode (the
 * chart is rebuilt with ECharts' dark theme on a transparent background), and resizes with its box.
 */
export function EChart({ option, height, label, testId }: EChartProps) {
  const { t } = useTranslation();
  const { mode } = useThemeMode();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<Library['echarts']['init']> | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  // The latest option, for a chart rebuilt by a theme switch.
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    loadLibrary()
      .then(({ echarts }) => {
        if (disposed || !box.current) return;
        const instance = echarts.init(box.current, mode === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
        chart.current = instance;
        instance.setOption({ backgroundColor: 'transparent', ...latest.current }, { notMerge: true });
        observer = new ResizeObserver(() => instance.resize());
        observer.observe(box.current);
        setState('ready');
      })
      .catch(() => {
        if (!disposed) setState('failed');
      });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, [mode]);

  useEffect(() => {
    if (state !== 'ready' || !chart.current) return;
    chart.current.setOption({ backgroundColor: 'transparent', ...option }, { notMerge: true });
  }, [option, state]);

  return (
    <div className="detail-chart" style={{ height }} data-testid={testId} data-state={state}>
      {state === 'loading' && (
        <Skeleton active title={false} paragraph={{ rows: 5 }} className="detail-chart-skeleton" />
      )}
      {state === 'failed' && <Typography.Text type="danger">{t('detail.chart_failed')}</Typography.Text>}
      <div ref={box} role="img" aria-label={label} className="detail-chart-canvas" />
    </div>
  );
}
