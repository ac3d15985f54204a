import { ReloadOutlined, RobotOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Avatar, Button, Collapse, Flex, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../types';
import { ChatMarkdown } from './chat-markdown';

interface MessageItemProps {
  message: ChatMessage;
  /** Only when no other answer is streaming. */
  onRetry?: () => void;
}

function TypingDots() {
  const { t } = useTranslation();
  return (
    <span className="chat-typing" role="status" aria-label={t('playground.thinking')}>
      <span />
      <span />
      <span />
    </span>
  );
}

export function MessageItem({ message, onRetry }: MessageItemProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();

  if (message.role === 'user') {
    return (
      <div className="chat-row chat-row-user" data-role="user">
        <div
          className="chat-bubble chat-bubble-user"
          style={{ background: token.colorPrimary, color: token.colorTextLightSolid }}
        >
          {message.content}
        </div>
        <Avatar size={32} icon={<UserOutlined />} className="chat-avatar" />
      </div>
    );
  }

  const text = message.greeting ? t('playground.greeting') : message.content;
  return (
    <div className="chat-row chat-row-assistant" data-role="assistant" data-state={message.state}>
      <Avatar
        size={32}
        icon={<RobotOutlined />}
        className="chat-avatar"
        style={{ background: token.colorPrimaryBg, color: token.colorPrimary }}
      />
      <div
        className="chat-bubble chat-bubble-assistant"
        style={{ background: token.colorFillQuaternary, borderColor: token.colorBorderSecondary }}
      >
        {message.reasoning && (
          <Collapse
            size="small"
            ghost
            className="chat-reasoning"
            items={[
              {
                key: 'reasoning',
                label: t('playground.reasoning'),
                children: (
                  <Typography.Paragraph type="secondary" className="chat-reasoning-text" style={{ margin: 0 }}>
                    {message.reasoning}
                  </Typography.Paragraph>
                ),
              },
            ]}
          />
        )}
        {message.state === 'loading' && !message.reasoning ? <TypingDots /> : text && <ChatMarkdown text={text} />}
        {message.state === 'incomplete' && <span className="chat-cursor" aria-hidden />}
        {message.state === 'complete' && !message.greeting && !text && !message.stopped && (
          <Typography.Text type="secondary">{t('playground.empty_answer')}</Typography.Text>
        )}
        {message.stopped && (
          <Typography.Text type="secondary" className="chat-note">
            {t('playground.stopped')}
          </Typography.Text>
        )}
        {message.state === 'error' && (
          <Alert
            type="error"
            showIcon
            className="chat-error"
            title={message.error}
            data-testid="playground-error"
            action={
              onRetry && (
                <Button size="small" icon={<ReloadOutlined />} onClick={onRetry}>
                  {t('playground.retry')}
                </Button>
              )
            }
          />
        )}
        {message.state === 'complete' && text && !message.greeting && (
          <Flex justify="flex-end" className="chat-actions">
            <Typography.Text
              type="secondary"
              copyable={{ text, tooltips: [t('playground.copy'), t('playground.copied')] }}
            />
          </Flex>
        )}
      </div>
    </div>
  );
}
