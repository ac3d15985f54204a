import { normalizeOptionValue } from '@gateway/shared';

/**
 * How a settings form holds an option and turns it back into the string the server stores. Switches hold
 * booleans, number inputs numbers, everything else text. Pure, so the diff and the save order are unit-tested.
 */
export type FieldKind = 'switch' | 'text' | 'url' | 'textarea' | 'json' | 'number' | 'select' | 'secret';

export type FormValue = string | number | boolean | null | undefined;

export type OptionMap = Record<string, string>;

export function toFormValue(kind: FieldKind, stored: string | undefined): FormValue {
  const value = stored ?? '';
  switch (kind) {
    case 'switch':
      return value === 'true';
    case 'number':
      return value.trim() === '' || !Number.isFinite(Number(value)) ? null : Number(value);
    case 'secret':
      // Secrets never come back from the server: the field starts empty and stays so unless retyped.
      return '';
    default:
      return value;
  }
}

export function toOptionString(kind: FieldKind, key: string, value: FormValue): string {
  switch (kind) {
    case 'switch':
      return value ? 'true' : 'false';
    case 'number':
      return value === null || value === undefined || value === '' ? '' : String(value);
    case 'url':
    case 'secret':
      return normalizeOptionValue(key, String(value ?? '').trim());
    default:
      return normalizeOptionValue(key, String(value ?? ''));
  }
}

export interface FieldRef {
  key: string;
  kind: FieldKind;
}

/**
 * The options a save must send: only values that differ from what is stored. An empty secret means "keep".
 * Switches being turned on go last, so "fill the client id and enable the login" in one save succeeds (the
 * server refuses the switch while the id is empty).
 */
export function changedOptions(
  fields: readonly FieldRef[],
  stored: OptionMap,
  values: Record<string, FormValue>,
): Array<[string, string]> {
  const changes: Array<[string, string]> = [];
  for (const { key, kind } of fields) {
    const next = toOptionString(kind, key, values[key]);
    if (kind === 'secret' && next === '') continue;
    if (next !== (stored[key] ?? '')) changes.push([key, next]);
  }
  const turnsOn = ([, value]: [string, string]) => (value === 'true' ? 1 : 0);
  return changes.sort((a, b) => turnsOn(a) - turnsOn(b));
}

export interface SaveResult {
  key: string;
  ok: boolean;
  message: string;
}

export type SaveOutcome = 'unchanged' | 'saved' | 'partial' | 'failed';

/** Spec 000 §8: nothing changed, full success, partial failure or failure. */
export function saveOutcome(results: readonly SaveResult[]): SaveOutcome {
  if (results.length === 0) return 'unchanged';
  const failed = results.filter((result) => !result.ok).length;
  if (failed === 0) return 'saved';
  return failed === results.length ? 'failed' : 'partial';
}

/** Parses a JSON number map option; a broken stored value yields null so the editor can say so. */
export function parseNumberMap(text: string | undefined): Record<string, number> | null {
  try {
    const parsed: unknown = JSON.parse(text ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return parsed as Record<string, number>;
  } catch {
    return null;
  }
}

const CJK = '\u3000-\u9fff\uff00-\uffef';
const SPACE_BETWEEN_CJK = new RegExp(`([${CJK}]) (?=[${CJK}])`, 'g');

/**
 * The message templates put a space after the option key (an ASCII name); after a Chinese label that space is
 * wrong: "充值分组倍率不是合法的 JSON 字符串", as spec 000 §5 words it.
 */
export function tightenCjk(text: string): string {
  return text.replace(SPACE_BETWEEN_CJK, '$1');
}
