import { Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardList } from '../../../components/list/card-list';
import { isCallLog, retryChain } from '../log-view';
import { useLogContent } from '../use-log-content';
import {
  ChannelCell,
  GroupTag,
  ModelCell,
  RetryCell,
  TimeCell,
  TimingCell,
  TokenTag,
  TypeTag,
  UserCell,
} from './log-cells';
import { LogDetails } from './log-details';
import { type LogListProps, QuotaText } from './log-table';

/** Usage logs on a phone: one card per log, details folded in on demand. */
export function LogCards({ logs, admin, loading, pagination, onOpenUser, empty }: LogListProps) {
  const { t } = useTranslation();
  const logContent = useLogContent();
  const [open, setOpen] = useState<number[]>([]);
  const toggle = (id: number) => setOpen((ids) => (ids.includes(id) ? ids.filter((key) => key !== id) : [...ids, id]));

  return (
    <CardList items={logs} loading={loading} pagination={pagination} empty={empty} testId="log-table">
      {(log) => (
        <Card key={log.id} size="small" className="list-card list-card-tagged">
          <Flex justify="space-between" align="center" gap={8} wrap>
            <Flex align="center" gap={6} wrap>
              <TypeTag type={log.type} />
              <Typography.Text type="secondary" className="log-card-time">
                <TimeCell log={log} />
              </Typography.Text>
            </Flex>
            <Typography.Text strong>
              <QuotaText log={log} />
            </Typography.Text>
          </Flex>
          {log.model_name && (
            <div>
              <ModelCell log={log} />
            </div>
          )}
          <TimingCell log={log} />
          <dl className="list-card-facts">
            {admin && (
              <>
                <dt>{t('log.col_user')}</dt>
                <dd>
                  <UserCell log={log} onOpen={onOpenUser} />
                </dd>
                <dt>{t('log.col_channel')}</dt>
                <dd>
                  <ChannelCell log={log} />
                </dd>
              </>
            )}
            {log.token_name && (
              <>
                <dt>{t('log.col_token')}</dt>
                <dd>
                  <TokenTag name={log.token_name} />
                </dd>
              </>
            )}
            {log.group && (
              <>
                <dt>{t('log.col_group')}</dt>
                <dd>
                  <GroupTag group={log.group} />
                </dd>
              </>
            )}
            {isCallLog(log) && (
              <>
                <dt>{t('log.col_tokens')}</dt>
                <dd>{t('log.tokens_value', { prompt: log.prompt_tokens, completion: log.completion_tokens })}</dd>
              </>
            )}
            {admin && retryChain(log.parsed) && (
              <>
                <dt>{t('log.col_retry')}</dt>
                <dd>
                  <RetryCell log={log} />
                </dd>
              </>
            )}
          </dl>
          {open.includes(log.id) ? (
            <LogDetails log={log} admin={admin} />
          ) : (
            logContent(log) && (
              <Typography.Text type="secondary" ellipsis className="log-card-content">
                {logContent(log)}
              </Typography.Text>
            )
          )}
          <Flex justify="flex-end">
            <Button size="small" type="link" onClick={() => toggle(log.id)}>
              {open.includes(log.id) ? t('log.hide_details') : t('log.show_details')}
            </Button>
          </Flex>
        </Card>
      )}
    </CardList>
  );
}
