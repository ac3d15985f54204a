import { PauseCircleOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import { type KeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../lib/use-media-query';

interface ChatInputProps {
  streaming: boolean;
  /** Why sending is not possible right now (no model), or null. */
  blockedReason: string | null;
  onSend: (text: string) => void;
  onStop: () => void;
}

/** The message box: Enter sends, Shift+Enter starts a new line, and an IME composition is left alone. */
export function ChatInput({ streaming, blockedReason, onSend, onStop }: ChatInputProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [text, setText] = useState('');
  const canSend = !streaming && !blockedReason && text.trim() !== '';

  const submit = () => {
    if (!canSend) return;
    onSend(text);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <div className="chat-input">
      <Input.TextArea
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        autoSize={{ minRows: 1, maxRows: 6 }}
        placeholder={
          blockedReason ?? (isMobile ? t('playground.input_placeholder_short') : t('playground.input_placeholder'))
        }
        aria-label={t('playground.input_label')}
        data-testid="playground-input"
        className="chat-input-box"
      />
      {streaming ? (
        <Button key="stop" danger icon={<PauseCircleOutlined />} onClick={onStop} data-testid="playground-stop">
          {t('playground.stop')}
        </Button>
      ) : (
        <Button
          key="send"
          type="primary"
          icon={<SendOutlined />}
          onClick={submit}
          disabled={!canSend}
          data-testid="playground-send"
          aria-label={t('playground.send')}
        >
          <span className="chat-send-label">{t('playground.send')}</span>
        </Button>
      )}
    </div>
  );
}
