import { Result, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePublicStatus, useStatusQuery } from '../../../hooks/use-status';
import { buildChatLink, chatServerAddress, parseChatLinks } from '../../../lib/chat-links';
import { notify } from '../../../lib/notify';
import { useFirstEnabledToken } from '../api/use-first-enabled-token';

/** Delay before sending a visitor without a usable token to the token page (spec §9). */
export const CHAT_REDIRECT_DELAY_MS = 1500;

/** /chat2link — jumps straight to the first chat front-end with the caller's first enabled token. */
export default function Chat2LinkPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const statusQuery = useStatusQuery();
  const status = usePublicStatus();
  const token = useFirstEnabledToken();
  const statusKnown = !(statusQuery.isPending && status.chats === undefined);
  const parsed = statusKnown ? parseChatLinks(status.chats) : null;
  const first = parsed?.ok ? parsed.links[0] : undefined;
  const tokenKey = token.data?.key;
  const noToken = token.isSuccess && !token.data;
  const address = chatServerAddress(status);

  useEffect(() => {
    if (!first || !tokenKey) return;
    window.location.assign(buildChatLink(first.template, tokenKey, address));
  }, [first, tokenKey, address]);

  useEffect(() => {
    if (!noToken) return;
    notify.error(t('chat.no_token'));
    const timer = window.setTimeout(() => navigate('/token'), CHAT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [noToken, navigate, t]);

  if (parsed && !parsed.ok) return <Result status="error" title={t('chat.config_error')} data-testid="chat-error" />;
  if (parsed?.ok && !first) return <Result status="info" title={t('chat.not_configured')} data-testid="chat-error" />;
  if (noToken) return <Result status="warning" title={t('chat.no_token')} subTitle={t('chat.redirecting_tokens')} />;
  if (token.isError) return <Result status="error" title={t('chat.token_load_failed')} />;
  return (
    <div className="full-page-center" style={{ minHeight: 320 }}>
      <Spin size="large" description={t('chat.redirecting')} />
    </div>
  );
}
