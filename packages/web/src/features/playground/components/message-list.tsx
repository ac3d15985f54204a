import { MessageOutlined } from '@ant-design/icons';
import { Empty } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../types';
import { MessageItem } from './message-item';

interface MessageListProps {
  messages: ChatMessage[];
  streaming: boolean;
  onRetry: (id: string) => void;
}

/** The conversation; it follows new text down unless the reader has scrolled up to read something. */
export function MessageList({ messages, streaming, onRetry }: MessageListProps) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: every change of the messages may need a scroll
  useEffect(() => {
    const element = container.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [messages]);

  const onScroll = () => {
    const element = container.current;
    if (element) pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
  };

  return (
    <div
      ref={container}
      className="chat-messages"
      onScroll={onScroll}
      data-testid="playground-messages"
      aria-live="polite"
    >
      {messages.length === 0 ? (
        <Empty
          className="chat-empty"
          image={<MessageOutlined className="empty-icon" />}
          description={t('playground.empty')}
        />
      ) : (
        messages.map((message) => (
          <MessageItem
            key={message.id}
            message={message}
            onRetry={message.state === 'error' && !streaming ? () => onRetry(message.id) : undefined}
          />
        ))
      )}
    </div>
  );
}
