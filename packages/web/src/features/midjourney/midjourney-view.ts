import dayjs from 'dayjs';
import type { ListFilters } from '../../components/list/record-view';

interface Look {
  color: string;
  labelKey: string;
}

/** Drawing actions (spec 001 §4); anything else reads as unknown. */
export const DRAWING_ACTIONS: Record<string, Look> = {
  IMAGINE: { color: 'blue', labelKey: 'midjourney.action_imagine' },
  UPSCALE: { color: 'orange', labelKey: 'midjourney.action_upscale' },
  VARIATION: { color: 'purple', labelKey: 'midjourney.action_variation' },
  HIGH_VARIATION: { color: 'purple', labelKey: 'midjourney.action_high_variation' },
  LOW_VARIATION: { color: 'purple', labelKey: 'midjourney.action_low_variation' },
  PAN: { color: 'cyan', labelKey: 'midjourney.action_pan' },
  DESCRIBE: { color: 'gold', labelKey: 'midjourney.action_describe' },
  BLEND: { color: 'lime', labelKey: 'midjourney.action_blend' },
  UPLOAD: { color: 'default', labelKey: 'midjourney.action_upload' },
  SHORTEN: { color: 'pink', labelKey: 'midjourney.action_shorten' },
  REROLL: { color: 'geekblue', labelKey: 'midjourney.action_reroll' },
  INPAINT: { color: 'volcano', labelKey: 'midjourney.action_inpaint' },
  ZOOM: { color: 'cyan', labelKey: 'midjourney.action_zoom' },
  CUSTOM_ZOOM: { color: 'cyan', labelKey: 'midjourney.action_custom_zoom' },
  MODAL: { color: 'magenta', labelKey: 'midjourney.action_modal' },
  SWAP_FACE: { color: 'lime', labelKey: 'midjourney.action_swap_face' },
};

/** Submit result codes: 1 submitted, 21 waiting, 22 duplicate submission, 0 not submitted. */
export const SUBMIT_CODES: Record<number, Look> = {
  1: { color: 'green', labelKey: 'midjourney.code_submitted' },
  21: { color: 'lime', labelKey: 'midjourney.code_waiting' },
  22: { color: 'orange', labelKey: 'midjourney.code_duplicate' },
  0: { color: 'gold', labelKey: 'midjourney.code_not_submitted' },
};

export const DRAWING_STATUSES: Record<string, Look> = {
  SUCCESS: { color: 'success', labelKey: 'midjourney.status_success' },
  NOT_START: { color: 'default', labelKey: 'midjourney.status_not_start' },
  SUBMITTED: { color: 'blue', labelKey: 'midjourney.status_submitted' },
  IN_PROGRESS: { color: 'processing', labelKey: 'midjourney.status_in_progress' },
  FAILURE: { color: 'error', labelKey: 'midjourney.status_failure' },
  MODAL: { color: 'warning', labelKey: 'midjourney.status_modal' },
};

const UNKNOWN: Look = { color: 'default', labelKey: 'midjourney.unknown' };

export const actionLook = (action: string) => DRAWING_ACTIONS[action] ?? UNKNOWN;
export const codeLook = (code: number) => SUBMIT_CODES[code] ?? UNKNOWN;
export const statusLook = (status: string) => DRAWING_STATUSES[status] ?? UNKNOWN;

/** Spec 001 §9: the drawing log opens on the last 30 days, up to an hour ahead. */
export function defaultDrawingFilters(now = dayjs()): ListFilters {
  return { channel: '', id: '', start: now.subtract(30, 'day'), end: now.add(1, 'hour') };
}
