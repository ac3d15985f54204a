import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Result, Skeleton, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useChannel } from '../api/use-channel';
import '../channel.css';
import { channelValues, newChannelValues } from '../channel-form-values';
import { ChannelForm } from '../components/channel-form';

/** /channel/add and /channel/edit/:id. */
export default function ChannelEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const editing = params.id !== undefined;
  const id = editing ? Number(params.id) : undefined;
  const channel = useChannel(id);
  const initialValues = useMemo(
    () => (channel.data ? channelValues(channel.data) : newChannelValues()),
    [channel.data],
  );

  const header = (
    <Flex align="center" gap={8} style={{ marginBottom: 16 }}>
      <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('ui.back')} onClick={() => navigate('/channel')} />
      <div>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {editing ? t('channel_form.edit_title') : t('channel_form.create_title')}
        </Typography.Title>
        {editing && channel.data && (
          <Typography.Text type="secondary">
            {t('channel_form.edit_subtitle', { id: channel.data.id, name: channel.data.name })}
          </Typography.Text>
        )}
      </div>
    </Flex>
  );

  let body: React.ReactNode;
  if (editing && (channel.isError || (id !== undefined && !Number.isInteger(id)))) {
    body = (
      <Card>
        <Result
          status="warning"
          title={t('errors:channel_not_found')}
          subTitle={channel.error instanceof Error ? channel.error.message : undefined}
          extra={[
            <Button key="retry" type="primary" icon={<ReloadOutlined />} onClick={() => void channel.refetch()}>
              {t('common.retry')}
            </Button>,
            <Button key="back" onClick={() => navigate('/channel')}>
              {t('channel_form.back_to_list')}
            </Button>,
          ]}
        />
      </Card>
    );
  } else if (editing && !channel.data) {
    body = (
      <Card data-testid="channel-form-loading">
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  } else {
    body = <ChannelForm key={id ?? 'new'} channelId={id} initialValues={initialValues} />;
  }

  return (
    <div className="page-container channel-form-page">
      {header}
      {body}
    </div>
  );
}
