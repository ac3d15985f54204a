/**
 * Midjourney-proxy submit routes → drawing action → billed model name (pure; family rules). The model name is
 * `mj_<action in lower case>`, except face swapping, which is billed as `swap_face`.
 */

export type SubmitKind =
  | 'imagine'
  | 'change'
  | 'simple-change'
  | 'describe'
  | 'blend'
  | 'action'
  | 'modal'
  | 'shorten'
  | 'edits'
  | 'video'
  | 'upload-discord-images'
  | 'swap-face';

/** Path under `/mj` (or `/{mode}/mj`) → submit kind. */
export const SUBMIT_PATHS: Record<string, SubmitKind> = {
  '/submit/imagine': 'imagine',
  '/submit/change': 'change',
  '/submit/simple-change': 'simple-change',
  '/submit/describe': 'describe',
  '/submit/blend': 'blend',
  '/submit/action': 'action',
  '/submit/modal': 'modal',
  '/submit/shorten': 'shorten',
  '/submit/edits': 'edits',
  '/submit/video': 'video',
  '/submit/upload-discord-images': 'upload-discord-images',
  '/insight-face/swap': 'swap-face',
};

const FIXED_ACTIONS: Partial<Record<SubmitKind, string>> = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  modal: 'MODAL',
  shorten: 'SHORTEN',
  edits: 'EDITS',
  video: 'VIDEO',
  'upload-discord-images': 'UPLOAD',
  'swap-face': 'SWAP_FACE',
};

/** Kinds that act on an earlier task: they must reach the channel that holds it. */
export const FOLLOW_UP_KINDS: ReadonlySet<SubmitKind> = new Set(['change', 'simple-change', 'action', 'modal']);

export interface MjBody {
  prompt?: unknown;
  action?: unknown;
  index?: unknown;
  taskId?: unknown;
  customId?: unknown;
  content?: unknown;
  base64?: unknown;
  base64Array?: unknown;
  sourceBase64?: unknown;
  targetBase64?: unknown;
  state?: unknown;
  [key: string]: unknown;
}

export type ResolvedAction =
  | { ok: true; action: string; model: string; originTaskId: string | null }
  | { ok: false; field?: string; action?: string };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const nonEmptyList = (value: unknown) => Array.isArray(value) && value.length > 0;

export function modelForAction(action: string): string {
  return action === 'SWAP_FACE' ? 'swap_face' : `mj_${action.toLowerCase()}`;
}

/** `"<taskId> U2"` → upscale #2 of that task; `V1`–`V4` variation, `R` reroll. */
export function parseSimpleChange(content: string): { taskId: string; action: string; index: number } | null {
  const parts = content.trim().split(/\s+/);
  if (parts.length !== 2) return null;
  const [taskId = '', change = ''] = parts;
  const letter = change[0]?.toLowerCase();
  if (change.toLowerCase() === 'r') return { taskId, action: 'REROLL', index: 1 };
  const index = Number(change.slice(1));
  if (change.length !== 2 || !Number.isInteger(index) || index < 1 || index > 4) return null;
  if (letter === 'u') return { taskId, action: 'UPSCALE', index };
  if (letter === 'v') return { taskId, action: 'VARIATION', index };
  return null;
}

/**
 * A Plus-style button id (`MJ::JOB::upsample::2::<hash>`, `MJ::Outpaint::…`) → the ordinary action it stands for.
 */
export function actionOfCustomId(customId: string): string | null {
  const parts = customId.split('::');
  const name = parts[1] === 'JOB' ? (parts[2] ?? '') : (parts[1] ?? '');
  if (!name) return null;
  if (name.includes('upsample')) return 'UPSCALE';
  if (name === 'low_variation') return 'LOW_VARIATION';
  if (name === 'high_variation') return 'HIGH_VARIATION';
  if (name.includes('variation')) return 'VARIATION';
  if (name.includes('pan')) return 'PAN';
  if (name.includes('reroll')) return 'REROLL';
  if (name === 'Outpaint') return 'ZOOM';
  if (name === 'CustomZoom') return 'CUSTOM_ZOOM';
  if (name === 'Inpaint') return 'INPAINT';
  return null;
}

const CHANGE_ACTIONS = new Set(['UPSCALE', 'VARIATION', 'REROLL']);

/** Validates a submit body for its route and names the action, the model it is billed as and the task it acts on. */
export function resolveAction(kind: SubmitKind, body: MjBody): ResolvedAction {
  const done = (action: string, originTaskId: string | null = null): ResolvedAction => ({
    ok: true,
    action,
    model: modelForAction(action),
    originTaskId,
  });
  switch (kind) {
    case 'imagine':
    case 'shorten':
      return text(body.prompt) ? done(FIXED_ACTIONS[kind]!) : { ok: false, field: 'prompt' };
    case 'describe':
      return text(body.base64) ? done('DESCRIBE') : { ok: false, field: 'base64' };
    case 'blend':
      return nonEmptyList(body.base64Array) ? done('BLEND') : { ok: false, field: 'base64Array' };
    case 'upload-discord-images':
      return nonEmptyList(body.base64Array) ? done('UPLOAD') : { ok: false, field: 'base64Array' };
    case 'swap-face':
      if (!text(body.sourceBase64)) return { ok: false, field: 'sourceBase64' };
      return text(body.targetBase64) ? done('SWAP_FACE') : { ok: false, field: 'targetBase64' };
    case 'edits':
    case 'video':
      return done(FIXED_ACTIONS[kind]!);
    case 'change': {
      const action = text(body.action).toUpperCase();
      if (!text(body.taskId)) return { ok: false, field: 'taskId' };
      if (!CHANGE_ACTIONS.has(action)) return { ok: false, action: action || '""' };
      return done(action, text(body.taskId));
    }
    case 'simple-change': {
      const parsed = parseSimpleChange(text(body.content));
      return parsed ? done(parsed.action, parsed.taskId) : { ok: false, field: 'content' };
    }
    case 'action': {
      if (!text(body.taskId)) return { ok: false, field: 'taskId' };
      if (!text(body.customId)) return { ok: false, field: 'customId' };
      const action = actionOfCustomId(text(body.customId));
      return action ? done(action, text(body.taskId)) : { ok: false, action: text(body.customId) };
    }
    case 'modal':
      return text(body.taskId) ? done('MODAL', text(body.taskId)) : { ok: false, field: 'taskId' };
  }
}

/** MjModeClearEnabled: the speed flags are the channel's business, not the caller's. */
export function clearModeFlags(prompt: string): string {
  return prompt.replace(/--(fast|relax|turbo)\b/g, '').trim();
}
