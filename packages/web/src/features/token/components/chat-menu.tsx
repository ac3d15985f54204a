import { DownOutlined, MessageOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePublicStatus } from '../../../hooks/use-status';
import { buildChatLink, chatServerAddress, parseChatLinks } from '../../../lib/chat-links';
import { notify } from '../../../lib/notify';

/** Opens the operator's chat front-ends with this token filled in: the first one directly, any from the menu. */
export function ChatMenu({ tokenKey }: { tokenKey: string }) {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const parsed = parseChatLinks(status.chats);
  if (parsed.ok && parsed.links.length === 0) return null;

  const open = (index: number) => {
    if (!parsed.ok) {
      notify.error(t('chat.config_error'));
      return;
    }
    const link = parsed.links[index];
    if (!link) return;
    window.open(buildChatLink(link.template, tokenKey, chatServerAddress(status)), '_blank', 'noopener,noreferrer');
  };

  const links = parsed.ok ? parsed.links : [];
  return (
    <Space.Compact size="small">
      <Button icon={<MessageOutlined />} onClick={() => open(0)}>
        {t('token.chat')}
      </Button>
      {links.length > 1 && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: links.map((link, index) => ({ key: String(index), label: link.name })),
            onClick: ({ key }) => open(Number(key)),
          }}
        >
          <Button icon={<DownOutlined />} aria-label={t('token.chat_more')} />
        </Dropdown>
      )}
    </Space.Compact>
  );
}
