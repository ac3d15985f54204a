import { type PricingMaps, sameNumberMap } from '@gateway/shared';
import { useMemo } from 'react';
import { useSaveOptions } from '../../api/use-save-options';
import { type OptionMap, parseNumberMap } from '../../option-form';
import { useReportSave } from '../kit/use-report-save';

const MAP_KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio'] as const;

/**
 * The three pricing maps the row editors work on, and a save that writes back only the maps whose content
 * changed (one PUT each, like every section). `maps` is null while a stored map is not valid JSON.
 */
export function usePricingMaps(options: OptionMap) {
  const save = useSaveOptions();
  const report = useReportSave();
  const maps = useMemo<PricingMaps | null>(() => {
    const [ModelPrice, ModelRatio, CompletionRatio] = MAP_KEYS.map((key) => parseNumberMap(options[key]));
    if (!ModelPrice || !ModelRatio || !CompletionRatio) return null;
    return { ModelPrice, ModelRatio, CompletionRatio };
  }, [options]);

  const saveMaps = async (next: PricingMaps): Promise<boolean> => {
    if (!maps) return false;
    const changes = MAP_KEYS.filter((key) => !sameNumberMap(maps[key], next[key])).map(
      (key) => [key, JSON.stringify(next[key], null, 2)] as [string, string],
    );
    const results = changes.length === 0 ? [] : await save.mutateAsync(changes);
    report(results);
    return results.every((result) => result.ok);
  };

  return { maps, saveMaps, saving: save.isPending };
}
