import { useTranslation } from 'react-i18next';
import { notify } from '../../../../lib/notify';
import { type SaveResult, saveOutcome } from '../../option-form';

/** Tells the admin how a save went, in the spec's words; each refusal is shown with the server's reason. */
export function useReportSave() {
  const { t } = useTranslation();
  return (results: SaveResult[]) => {
    switch (saveOutcome(results)) {
      case 'unchanged':
        notify.info(t('setting.nothing_changed'));
        return;
      case 'saved':
        notify.success(t('errors:saved'));
        return;
      case 'partial':
        notify.warning(t('setting.partial_failed'));
        break;
      case 'failed':
        notify.error(t('setting.save_failed'));
        break;
    }
    for (const result of results) if (!result.ok) notify.error(result.message);
  };
}
