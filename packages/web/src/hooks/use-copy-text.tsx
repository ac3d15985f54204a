import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyFallbackModal } from '../components/copy-fallback-modal';
import { notify } from '../lib/notify';

/** Copies to the clipboard, or opens a modal with the text when the browser refuses (spec error catalogue). */
export function useCopyText() {
  const { t } = useTranslation();
  const [manualText, setManualText] = useState<string | null>(null);

  const copy = useCallback(
    async (text: string, successText?: string) => {
      try {
        await navigator.clipboard.writeText(text);
        notify.success(successText ?? t('token.copied'));
      } catch {
        setManualText(text);
      }
    },
    [t],
  );

  const fallback = <CopyFallbackModal text={manualText} onClose={() => setManualText(null)} />;
  return { copy, fallback };
}
