import { FileSearchOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLogBodies } from '../api/use-log-bodies';
import { readableBody } from '../body-text';

function BodyBlock({ title, body, testId }: { title: string; body: string; testId: string }) {
  const { t } = useTranslation();
  const shown = readableBody(body);
  return (
    <Flex vertical gap={4} data-testid={testId}>
      <Flex align="center" gap={8} wrap>
        <Typography.Text strong>{title}</Typography.Text>
        <Tag>{shown.json ? 'JSON' : t('log_bodies.plain_text')}</Tag>
        <Typography.Text copyable={{ text: shown.text, tooltips: [t('log_bodies.copy'), t('log_bodies.copied')] }} />
      </Flex>
      {body === '' ? (
        <Typography.Text type="secondary">{t('log_bodies.empty')}</Typography.Text>
      ) : (
        <pre className="log-body mono-text">{shown.text}</pre>
      )}
    </Flex>
  );
}

/**
 * Admins only: the call's request and response bodies, when its channel or group keeps them. Loaded on demand from
 * `/api/log/{id}/bodies`; users' own log views never render this.
 */
export function LogBodiesSection({ logId }: { logId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const bodies = useLogBodies(logId, open);

  if (!open) {
    return (
      <div>
        <Button size="small" icon={<FileSearchOutlined />} onClick={() => setOpen(true)}>
          {t('log_bodies.show')}
        </Button>
      </div>
    );
  }
  return (
    <Flex vertical gap={8} className="log-bodies" data-testid="log-bodies">
      <Typography.Text strong>{t('log_bodies.title')}</Typography.Text>
      {bodies.isPending && <Spin size="small" />}
      {bodies.isError && <Alert type="error" showIcon title={t('log_bodies.load_failed')} />}
      {bodies.isSuccess && !bodies.data && (
        <Typography.Text type="secondary" data-testid="log-bodies-none">
          {t('log_bodies.none')}
        </Typography.Text>
      )}
      {bodies.data && (
        <>
          <BodyBlock title={t('log_bodies.request')} body={bodies.data.request_body} testId="log-body-request" />
          <BodyBlock title={t('log_bodies.response')} body={bodies.data.response_body} testId="log-body-response" />
        </>
      )}
    </Flex>
  );
}
