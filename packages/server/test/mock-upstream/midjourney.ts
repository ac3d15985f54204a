import { type Exchange, sendJson } from './exchange.js';
import { gradientPng } from './png.js';
import type { ErrorReply, ErrorSpec, Route } from './route.js';
import { INVALID_KEY } from './route.js';
import { numericTaskId, phaseOf, type ScriptedTask, scriptOf, taskStore } from './task-script.js';

/**
 * midjourney-proxy (novicezk's API, which every "Midjourney Proxy" channel speaks): `mj-api-secret` auth, submits
 * answered `{code, description, result, properties}` (1 submitted, 4 bad request, 23 queue full, 24 banned
 * prompt), tasks read back through `/mj/task/{id}/fetch` and `POST /mj/task/list-by-condition`.
 */

interface MjTask {
  action: string;
  prompt: string;
  state: string;
  description: string;
}

const ACTION_OF: Record<string, string> = {
  imagine: 'IMAGINE',
  change: 'CHANGE',
  'simple-change': 'CHANGE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  action: 'ACTION',
  modal: 'MODAL',
  shorten: 'SHORTEN',
  edits: 'EDITS',
  video: 'VIDEO',
  'upload-discord-images': 'UPLOAD',
  swap: 'SWAP_FACE',
};

export function midjourneyError(spec: ErrorSpec): ErrorReply {
  return {
    status: spec.status,
    body: { code: spec.code ?? 9, description: spec.message ?? `upstream failed with status ${spec.status}` },
  };
}

function checkSecret(ex: Exchange): ErrorReply | null {
  const secret = ex.headers['mj-api-secret'];
  if (!secret || secret === INVALID_KEY) return { status: 401, body: { code: 401, description: 'Unauthorized' } };
  return null;
}

const store = (ex: Exchange) => taskStore<MjTask>(`mj:${ex.baseUrl}`);

/** The task as the proxy reports it, at its current step. */
function taskJson(ex: Exchange, task: ScriptedTask<MjTask>) {
  const phase = phaseOf(task);
  const started = task.fetches > 0 ? task.submittedAt + 1000 : 0;
  const base = {
    id: task.id,
    action: task.payload.action,
    prompt: task.payload.prompt,
    promptEn: task.payload.prompt.replace(/\[\w+\]\s*/g, ''),
    description: task.payload.description,
    state: task.payload.state,
    submitTime: task.submittedAt,
    startTime: started,
    finishTime: 0,
    imageUrl: '',
    status: 'NOT_START',
    progress: '0%',
    failReason: '',
    buttons: [] as unknown[],
    properties: { finalPrompt: task.payload.prompt, discordInstanceId: '1118138338562560102' },
  };
  switch (phase.state) {
    case 'running':
      return {
        ...base,
        status: 'IN_PROGRESS',
        progress: `${phase.percent}%`,
        imageUrl: `${ex.baseUrl}/mj/attachments/${task.id}-preview.png`,
      };
    case 'failed':
      return {
        ...base,
        status: 'FAILURE',
        progress: '0%',
        finishTime: started + 1000,
        failReason: '[Invalid parameter] Invalid value for parameter',
      };
    case 'done':
      return {
        ...base,
        status: 'SUCCESS',
        progress: '100%',
        finishTime: started + 30_000,
        imageUrl: `${ex.baseUrl}/mj/attachments/${task.id}.png`,
        buttons: ['U1', 'U2', 'U3', 'U4', '🔄', 'V1', 'V2', 'V3', 'V4'].map((label) => ({
          customId: label.startsWith('U')
            ? `MJ::JOB::upsample::${label[1]}::${task.id}`
            : label.startsWith('V')
              ? `MJ::JOB::variation::${label[1]}::${task.id}`
              : `MJ::JOB::reroll::0::${task.id}::SOLO`,
          emoji: label === '🔄' ? '🔄' : '',
          label: label === '🔄' ? '' : label,
          type: 2,
          style: 2,
        })),
      };
    default:
      return base;
  }
}

async function submit(ex: Exchange): Promise<void> {
  const kind = ex.params.kind ?? '';
  const body = (ex.body && typeof ex.body === 'object' ? ex.body : {}) as Record<string, unknown>;
  const prompt = typeof body.prompt === 'string' ? body.prompt : '';
  if (kind === 'imagine' && !prompt) {
    sendJson(ex, 200, { code: 4, description: 'prompt不能为空', result: null });
    return;
  }
  const followUp = typeof body.taskId === 'string' ? body.taskId : /^(\d+)\s/.exec(String(body.content ?? ''))?.[1];
  if (['change', 'simple-change', 'action', 'modal'].includes(kind) && !store(ex).has(followUp ?? '')) {
    sendJson(ex, 200, { code: 4, description: '关联任务不存在或已失效', result: null });
    return;
  }
  if (prompt.includes('[banned]')) {
    sendJson(ex, 200, {
      code: 24,
      description: '可能包含敏感词',
      result: null,
      properties: { promptEn: prompt, bannedWord: 'banned' },
    });
    return;
  }
  if (prompt.includes('[queue-full]')) {
    sendJson(ex, 200, { code: 23, description: '队列已满，请稍后尝试', result: null });
    return;
  }
  const id = numericTaskId();
  const action = kind === 'change' ? String(body.action ?? 'CHANGE') : (ACTION_OF[kind] ?? kind.toUpperCase());
  store(ex).set(id, {
    id,
    script: scriptOf(prompt),
    fetches: 0,
    submittedAt: Date.now(),
    payload: {
      action,
      prompt,
      state: typeof body.state === 'string' ? body.state : '',
      description: `/${kind} ${prompt}`,
    },
  });
  sendJson(ex, 200, {
    code: 1,
    description: '提交成功',
    result: id,
    properties: { discordInstanceId: '1118138338562560102' },
  });
}

/** Reading a task is what moves its script one step on. */
function read(ex: Exchange, id: string) {
  const task = store(ex).get(id);
  if (!task) return null;
  task.fetches += 1;
  return taskJson(ex, task);
}

async function fetchOne(ex: Exchange): Promise<void> {
  const task = read(ex, ex.params.id ?? '');
  if (!task) {
    sendJson(ex, 404, { code: 3, description: '任务不存在' });
    return;
  }
  sendJson(ex, 200, task);
}

/** The seed is a number derived from the id, so a test can predict it. */
async function imageSeed(ex: Exchange): Promise<void> {
  const id = ex.params.id ?? '';
  if (!store(ex).has(id)) {
    sendJson(ex, 404, { code: 3, description: '任务不存在' });
    return;
  }
  sendJson(ex, 200, { code: 1, description: '成功', result: id.slice(-6) });
}

async function listByCondition(ex: Exchange): Promise<void> {
  const ids = (ex.body as { ids?: unknown } | undefined)?.ids;
  const list = Array.isArray(ids) ? ids.map((id) => read(ex, String(id))).filter(Boolean) : [];
  sendJson(ex, 200, list);
}

async function image(ex: Exchange): Promise<void> {
  const png = gradientPng(ex.params.name ?? '');
  ex.res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
  ex.res.end(png);
}

const SUBMIT = /^(?:\/[\w-]+)?\/mj\/(?:submit\/([\w-]+)|insight-face\/(swap))$/;

export const midjourneyRoutes: Route[] = [
  {
    key: 'mj.submit',
    method: 'POST',
    match: (path) => {
      const match = SUBMIT.exec(path);
      return match ? { kind: match[1] ?? match[2] ?? '' } : null;
    },
    error: midjourneyError,
    check: checkSecret,
    handle: submit,
  },
  {
    key: 'mj.fetch',
    method: 'GET',
    match: (path) => {
      const match = /^\/mj\/task\/([^/]+)\/fetch$/.exec(path);
      return match ? { id: match[1]! } : null;
    },
    error: midjourneyError,
    check: checkSecret,
    handle: fetchOne,
  },
  {
    key: 'mj.fetch',
    method: 'GET',
    match: (path) => {
      const match = /^\/mj\/task\/([^/]+)\/image-seed$/.exec(path);
      return match ? { id: match[1]! } : null;
    },
    error: midjourneyError,
    check: checkSecret,
    handle: imageSeed,
  },
  {
    key: 'mj.fetch',
    method: 'POST',
    match: (path) => (path === '/mj/task/list-by-condition' ? {} : null),
    error: midjourneyError,
    check: checkSecret,
    handle: listByCondition,
  },
  {
    key: 'mj.image',
    method: 'GET',
    match: (path) => {
      const match = /^\/mj\/attachments\/([\w-]+)\.png$/.exec(path);
      return match ? { name: match[1]! } : null;
    },
    error: midjourneyError,
    handle: image,
  },
];
