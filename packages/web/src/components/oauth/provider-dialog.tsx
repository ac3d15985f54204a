import type { PublicStatus } from '@gateway/shared';
import { lazy, Suspense, useEffect, useState } from 'react';

// Loaded the first time someone opens one: pages that only show the buttons stay light.
const WechatModal = lazy(() => import('./wechat-modal').then((module) => ({ default: module.WechatModal })));
const TelegramModal = lazy(() => import('./telegram-modal').then((module) => ({ default: module.TelegramModal })));

interface ProviderDialogProps {
  provider: 'wechat' | 'telegram' | null;
  mode: 'login' | 'bind';
  status: Partial<PublicStatus>;
  onClose: () => void;
}

/** The WeChat QR dialog or the Telegram widget dialog, whichever is open. */
export function ProviderDialog({ provider, mode, status, onClose }: ProviderDialogProps) {
  // Stays mounted after the first opening so the dialog can animate out.
  const [used, setUsed] = useState<Set<'wechat' | 'telegram'>>(new Set());
  useEffect(() => {
    if (provider && !used.has(provider)) setUsed(new Set([...used, provider]));
  }, [provider, used]);
  return (
    <Suspense fallback={null}>
      {(provider === 'wechat' || used.has('wechat')) && (
        <WechatModal open={provider === 'wechat'} mode={mode} status={status} onClose={onClose} />
      )}
      {(provider === 'telegram' || used.has('telegram')) && (
        <TelegramModal open={provider === 'telegram'} mode={mode} status={status} onClose={onClose} />
      )}
    </Suspense>
  );
}
