import { LogType } from '@gateway/shared';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../hooks/use-format-quota';
import { parseOther } from './log-view';
import type { LogItem } from './types';

/** Params that hold quota units, shown in the reader's display unit. */
const QUOTA_PARAMS = new Set(['quota', 'from', 'to']);

/**
 * The text of a log line in the reader's language. The server keeps the family's Chinese `content` for old clients
 * and stores the facts beside it; a consumption line is rebuilt from its ratios. Rows without facts (written by
 * the family's server, or error messages) show their content as it is.
 */
export function useLogContent(): (log: Pick<LogItem, 'type' | 'content' | 'other'>) => string {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  return (log) => {
    const other = parseOther(log.other);
    if (typeof other.content_key === 'string') {
      const params: Record<string, string | number> = {};
      for (const [name, value] of Object.entries(other.content_params ?? {})) {
        params[name] = QUOTA_PARAMS.has(name) && typeof value === 'number' ? formatQuota(value) : value;
      }
      const text = t(`log.facts.${other.content_key}`, { ...params, defaultValue: '' });
      if (text) return text;
    }
    if (log.type === LogType.Consume && typeof other.group_ratio === 'number') {
      const price =
        typeof other.model_price === 'number' && other.model_price >= 0
          ? t('log.facts.consume_price', { price: other.model_price, group: other.group_ratio })
          : typeof other.model_ratio === 'number'
            ? t('log.facts.consume_ratio', {
                model: other.model_ratio,
                completion: other.completion_ratio ?? 1,
                group: other.group_ratio,
              })
            : '';
      if (price && other.task_id)
        return t('log.facts.consume_task', { price, action: other.action ?? '', task: other.task_id });
      if (price) return price;
    }
    return log.content ?? '';
  };
}
