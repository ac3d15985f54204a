import { CalendarOutlined, CheckCircleFilled, LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { CheckinRecordView } from '@gateway/shared';
import { Button, Card, Flex, Skeleton, Tooltip, Typography, theme } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTurnstile } from '../../../components/account/turnstile-widget';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { currentLanguage } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useCheckin, useCheckinStatus } from '../api/use-checkin';
import { calendarWeeks, shiftMonth, weekdayNames } from '../checkin-calendar';

/**
 * Daily check-in (shown while the operator has it on): today's button, the streak, and a month's calendar of the
 * days checked in, each with its reward. The day is the server's (its time zone), not the browser's.
 */
export function CheckinCard() {
  const status = usePublicStatus();
  if (!status.checkin_enabled) return null;
  return <CheckinCardBody />;
}

function CheckinCardBody() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const status = usePublicStatus();
  const humanCheck = useTurnstile(status);
  const formatQuota = useFormatQuota();
  const [month, setMonth] = useState<string | undefined>(undefined);
  const query = useCheckinStatus(month, true);
  const checkin = useCheckin();
  const language = currentLanguage();
  const data = query.data;
  const today = data?.stats.today ?? '';
  const shown = month ?? today.slice(0, 7);
  const rewards = useMemo(
    () => new Map((data?.stats.records ?? []).map((record: CheckinRecordView) => [record.checkin_date, record])),
    [data],
  );
  const count = new Intl.NumberFormat(language);

  const onCheckin = () => {
    if (humanCheck.enabled && !humanCheck.token) {
      notify.info(t('errors:turnstile_pending'));
      return;
    }
    checkin.mutate(humanCheck.token, {
      onSuccess: (envelope) => {
        notify.success(t('wallet.checkin_success', { value: formatQuota(envelope.data?.quota_awarded ?? 0) }));
        // Back to the current month, where today's mark is.
        setMonth(undefined);
      },
      onSettled: humanCheck.renew,
    });
  };

  const title = (
    <Flex align="center" gap={8}>
      <CalendarOutlined />
      {t('wallet.checkin_title')}
    </Flex>
  );
  if (!data) {
    return (
      <Card className="wallet-card" title={title} data-testid="wallet-checkin">
        {query.isError ? (
          <Typography.Text type="danger">{t('wallet.checkin_load_failed')}</Typography.Text>
        ) : (
          <Skeleton active paragraph={{ rows: 4 }} />
        )}
      </Card>
    );
  }

  const done = data.stats.checked_in_today;
  const [year, monthNumber] = shown.split('-').map(Number) as [number, number];
  const monthTitle = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long' }).format(
    new Date(year, monthNumber - 1, 1),
  );

  return (
    <Card className="wallet-card" title={title} data-testid="wallet-checkin">
      <Flex vertical gap={16}>
        <div className="wallet-checkin-facts">
          <div>
            <Typography.Text type="secondary">{t('wallet.checkin_streak')}</Typography.Text>
            <div className="wallet-checkin-streak" data-testid="checkin-streak" style={{ color: token.colorPrimary }}>
              {count.format(data.stats.streak)}
            </div>
          </div>
          <div>
            <Typography.Text type="secondary">{t('wallet.checkin_month_count')}</Typography.Text>
            <div className="wallet-balance-fact" data-testid="checkin-month-count">
              {count.format(data.stats.checkin_count)}
            </div>
          </div>
          <div>
            <Typography.Text type="secondary">{t('wallet.checkin_total')}</Typography.Text>
            <div className="wallet-balance-fact" data-testid="checkin-total">
              {formatQuota(data.stats.total_quota)}
            </div>
          </div>
        </div>
        <Flex vertical gap={8}>
          <Button
            type="primary"
            size="large"
            block
            icon={done ? <CheckCircleFilled /> : undefined}
            disabled={done}
            loading={checkin.isPending}
            onClick={onCheckin}
            data-testid="checkin-button"
          >
            {done ? t('wallet.checkin_done_today') : t('wallet.checkin_button')}
          </Button>
          <Typography.Text type="secondary" className="wallet-checkin-range">
            {data.min_quota === data.max_quota
              ? t('wallet.checkin_reward_fixed', { value: formatQuota(data.min_quota) })
              : t('wallet.checkin_reward_range', {
                  min: formatQuota(data.min_quota),
                  max: formatQuota(data.max_quota),
                })}
          </Typography.Text>
          {humanCheck.widget}
        </Flex>
        <div className="wallet-checkin-calendar" data-testid="checkin-calendar">
          <Flex align="center" justify="space-between" className="wallet-checkin-month">
            <Button
              type="text"
              size="small"
              icon={<LeftOutlined />}
              aria-label={t('wallet.checkin_prev_month')}
              onClick={() => setMonth(shiftMonth(shown, -1))}
            />
            <Typography.Text strong data-testid="checkin-month-title">
              {monthTitle}
            </Typography.Text>
            <Button
              type="text"
              size="small"
              icon={<RightOutlined />}
              aria-label={t('wallet.checkin_next_month')}
              disabled={shown >= today.slice(0, 7)}
              onClick={() => setMonth(shiftMonth(shown, 1))}
            />
          </Flex>
          <table className="wallet-checkin-table" aria-label={monthTitle}>
            <thead>
              <tr>
                {weekdayNames(language).map((name) => (
                  <th key={name.key} scope="col" className="wallet-checkin-weekday">
                    {name.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {calendarWeeks(shown).map((week) => (
                <tr key={week[0]!.key}>
                  {week.map(({ key, date }) => {
                    if (!date) return <td key={key} />;
                    const record = rewards.get(date);
                    const isToday = date === today;
                    const label = record
                      ? t('wallet.checkin_day_done', { date, value: formatQuota(record.quota_awarded) })
                      : undefined;
                    const cell = (
                      <div
                        className={`wallet-checkin-day${record ? ' is-done' : ''}${isToday ? ' is-today' : ''}`}
                        style={{
                          background: record ? token.colorPrimary : undefined,
                          color: record ? token.colorTextLightSolid : undefined,
                          borderColor: isToday ? token.colorPrimary : undefined,
                        }}
                      >
                        {Number(date.slice(8))}
                      </div>
                    );
                    return (
                      <td key={date} aria-label={label} data-testid={record ? 'checkin-day-done' : undefined}>
                        {record ? <Tooltip title={label}>{cell}</Tooltip> : cell}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Flex>
    </Card>
  );
}
