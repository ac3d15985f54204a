import { ClearOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Card, Drawer, Flex, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../../lib/session';
import { useIsMobile } from '../../../lib/use-media-query';
import { usePlaygroundGroups } from '../api/use-playground-groups';
import { usePlaygroundModels } from '../api/use-playground-models';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_TEMPERATURE,
  defaultGroup,
  defaultModel,
  type RequestSettings,
} from '../chat-request';
import { ChatInput } from '../components/chat-input';
import { MessageList } from '../components/message-list';
import { SettingsPanel } from '../components/settings-panel';
import '../playground.css';
import type { PlaygroundSettings } from '../types';
import { useChatSession } from '../use-chat-session';

export default function PlaygroundPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const user = useSessionUser();
  const groups = usePlaygroundGroups();
  const models = usePlaygroundModels();
  const chat = useChatSession();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [settings, setSettings] = useState<PlaygroundSettings>({
    group: '',
    model: '',
    temperature: DEFAULT_TEMPERATURE,
    maxTokens: DEFAULT_MAX_TOKENS,
    systemPrompt: null,
  });

  // Until the user picks, the choices follow the defaults of whatever the server offers.
  const modelList = models.data ?? [];
  const group = settings.group || defaultGroup(groups.data ?? {}, user?.group);
  const model = settings.model && modelList.includes(settings.model) ? settings.model : defaultModel(modelList);
  const systemPrompt = settings.systemPrompt ?? t('playground.default_system_prompt');
  const request: RequestSettings = {
    model,
    group,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    systemPrompt,
  };

  const blockedReason = models.isPending ? t('playground.loading_models') : !model ? t('playground.no_models') : null;

  const panel = (
    <SettingsPanel
      groups={groups.data}
      groupsLoading={groups.isPending}
      models={models.data}
      unpricedModels={models.unpriced}
      modelsLoading={models.isPending}
      group={group}
      model={model}
      temperature={settings.temperature}
      maxTokens={settings.maxTokens}
      systemPrompt={systemPrompt}
      onChange={(change) => setSettings((previous) => ({ ...previous, ...change }))}
    />
  );

  return (
    <div className="page-container playground-page">
      <div className="playground">
        {!isMobile && (
          <Card className="playground-aside" title={t('playground.settings')} size="small">
            {panel}
          </Card>
        )}
        <Card
          className="playground-chat"
          size="small"
          title={
            <Flex align="center" gap={8} className="playground-chat-title">
              <span>{t('playground.title')}</span>
              {model && (
                <Tag variant="filled" color="blue" className="playground-model-tag">
                  {model}
                </Tag>
              )}
            </Flex>
          }
          extra={
            <Flex gap={4}>
              {isMobile && (
                <Button
                  icon={<SettingOutlined />}
                  onClick={() => setSettingsOpen(true)}
                  aria-label={t('playground.settings')}
                  data-testid="playground-settings-toggle"
                >
                  {t('playground.settings')}
                </Button>
              )}
              <Tooltip title={t('playground.clear')}>
                <Button
                  icon={<ClearOutlined />}
                  onClick={chat.clear}
                  aria-label={t('playground.clear')}
                  data-testid="playground-clear"
                >
                  {isMobile ? null : t('playground.clear')}
                </Button>
              </Tooltip>
            </Flex>
          }
          styles={{ body: { display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0, padding: 0 } }}
        >
          <MessageList messages={chat.messages} streaming={chat.streaming} onRetry={(id) => chat.retry(id, request)} />
          <ChatInput
            streaming={chat.streaming}
            blockedReason={blockedReason}
            onSend={(text) => chat.send(text, request)}
            onStop={chat.stop}
          />
        </Card>
      </div>
      {isMobile && (
        <Drawer
          open={settingsOpen}
          onClose={() => setSettingsOpen(false)}
          placement="left"
          size={Math.min(340, window.innerWidth - 32)}
          title={t('playground.settings')}
        >
          {panel}
        </Drawer>
      )}
    </div>
  );
}
