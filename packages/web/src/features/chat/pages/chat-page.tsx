import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageLoading } from '../../../components/page-loading';
import { usePublicStatus, useStatusQuery } from '../../../hooks/use-status';
import { buildChatLink, chatServerAddress, parseChatLinks } from '../../../lib/chat-links';
import { useFirstEnabledToken } from '../api/use-first-enabled-token';

/** /chat/:id? — the operator's chat front-end number `id` (default 0), signed in with the caller's token. */
export default function ChatPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const statusQuery = useStatusQuery();
  const status = usePublicStatus();
  const token = useFirstEnabledToken();

  // Without a fresh or stored status the chat links are unknown yet, not missing.
  if ((statusQuery.isPending && status.chats === undefined) || token.isPending) return <PageLoading />;

  const parsed = parseChatLinks(status.chats);
  const index = id === undefined ? 0 : Number(id);
  if (!parsed.ok || !Number.isInteger(index) || index < 0) {
    return <Result status="error" title={t('chat.config_error')} data-testid="chat-error" />;
  }
  if (parsed.links.length === 0) {
    return <Result status="info" title={t('chat.not_configured')} data-testid="chat-error" />;
  }
  const link = parsed.links[index];
  if (!link) return <Result status="error" title={t('chat.config_error')} data-testid="chat-error" />;

  if (!token.data) {
    return (
      <Result
        status="warning"
        title={token.isError ? t('chat.token_load_failed') : t('chat.no_token')}
        data-testid="chat-error"
        extra={
          <Button type="primary" onClick={() => navigate('/token')}>
            {t('chat.go_tokens')}
          </Button>
        }
      />
    );
  }

  return (
    <iframe
      className="embedded-page"
      src={buildChatLink(link.template, token.data.key, chatServerAddress(status))}
      title={link.name}
      data-testid="chat-frame"
      allow="clipboard-read; clipboard-write; microphone"
    />
  );
}
