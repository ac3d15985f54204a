import { randomUUID } from 'node:crypto';
import { type Exchange, sendJson } from './exchange.js';
import { bearer, type ErrorReply, type ErrorSpec, INVALID_KEY, type Route } from './route.js';
import { phaseOf, type ScriptedTask, scriptOf, taskStore } from './task-script.js';

/**
 * The Suno API the family's Suno channel speaks: Bearer auth, `{code, message, data}` envelopes with
 * `code: "success"`, submits answering the task id in `data`, and `POST /suno/fetch {ids}` listing tasks whose
 * `data` holds the clips (music) or the lyrics.
 */

interface SunoTask {
  action: 'MUSIC' | 'LYRICS';
  prompt: string;
  title: string;
  tags: string;
}

export function sunoError(spec: ErrorSpec): ErrorReply {
  return {
    status: spec.status,
    body: {
      code: spec.code ?? 'error',
      message: spec.message ?? `upstream failed with status ${spec.status}`,
      data: null,
    },
  };
}

function checkBearer(ex: Exchange): ErrorReply | null {
  const key = bearer(ex.headers);
  if (!key || key === INVALID_KEY) return sunoError({ status: 401, code: 'unauthorized', message: 'invalid api key' });
  return null;
}

const store = (ex: Exchange) => taskStore<SunoTask>(`suno:${ex.baseUrl}`);

function clips(ex: Exchange, task: ScriptedTask<SunoTask>, complete: boolean) {
  if (task.payload.action === 'LYRICS') {
    return complete
      ? {
          id: task.id,
          title: task.payload.title,
          text: `[Verse]\n${task.payload.prompt}\n[Chorus]\nLa la la`,
          status: 'complete',
        }
      : null;
  }
  return [1, 2].map((n) => ({
    id: `${task.id}-${n}`,
    title: task.payload.title,
    status: complete ? 'complete' : 'streaming',
    audio_url: complete ? `${ex.baseUrl}/suno/files/${task.id}-${n}.mp3` : '',
    image_url: `${ex.baseUrl}/mj/attachments/${task.id}-${n}.png`,
    video_url: '',
    model_name: 'chirp-v3',
    metadata: { tags: task.payload.tags, prompt: task.payload.prompt, duration: complete ? 120.5 : null },
  }));
}

function taskJson(ex: Exchange, task: ScriptedTask<SunoTask>) {
  const phase = phaseOf(task);
  const submitted = Math.floor(task.submittedAt / 1000);
  const base = {
    task_id: task.id,
    action: task.payload.action,
    status: 'SUBMITTED',
    fail_reason: '',
    submit_time: submitted,
    start_time: task.fetches > 0 ? submitted + 1 : 0,
    finish_time: 0,
    progress: '0%',
    data: null as unknown,
  };
  switch (phase.state) {
    case 'running':
      return { ...base, status: 'IN_PROGRESS', progress: `${phase.percent}%`, data: clips(ex, task, false) };
    case 'failed':
      return {
        ...base,
        status: 'FAILURE',
        progress: '100%',
        finish_time: submitted + 2,
        fail_reason: 'Unable to generate: content policy',
      };
    case 'done':
      return { ...base, status: 'SUCCESS', progress: '100%', finish_time: submitted + 60, data: clips(ex, task, true) };
    default:
      return base;
  }
}

async function submit(ex: Exchange): Promise<void> {
  const action = ex.params.action === 'lyrics' ? 'LYRICS' : 'MUSIC';
  const body = (ex.body && typeof ex.body === 'object' ? ex.body : {}) as Record<string, unknown>;
  const prompt = String(body.prompt ?? body.gpt_description_prompt ?? '');
  if (prompt.includes('[refuse]')) {
    sendJson(ex, 400, { code: 'fail', message: 'prompt contains banned words', data: null });
    return;
  }
  const id = randomUUID();
  store(ex).set(id, {
    id,
    script: scriptOf(prompt),
    fetches: 0,
    submittedAt: Date.now(),
    payload: { action, prompt, title: String(body.title ?? 'Untitled'), tags: String(body.tags ?? '') },
  });
  sendJson(ex, 200, { code: 'success', message: '', data: id });
}

function read(ex: Exchange, id: string) {
  const task = store(ex).get(id);
  if (!task) return null;
  task.fetches += 1;
  return taskJson(ex, task);
}

async function fetchMany(ex: Exchange): Promise<void> {
  const ids = (ex.body as { ids?: unknown } | undefined)?.ids;
  const list = Array.isArray(ids) ? ids.map((id) => read(ex, String(id))).filter(Boolean) : [];
  sendJson(ex, 200, { code: 'success', message: '', data: list });
}

async function fetchOne(ex: Exchange): Promise<void> {
  const task = read(ex, ex.params.id ?? '');
  if (!task) {
    sendJson(ex, 404, { code: 'task_not_exist', message: 'task not exist', data: null });
    return;
  }
  sendJson(ex, 200, { code: 'success', message: '', data: task });
}

export const sunoRoutes: Route[] = [
  {
    key: 'suno.submit',
    method: 'POST',
    match: (path) => {
      const match = /^\/suno\/submit\/(music|lyrics)$/.exec(path);
      return match ? { action: match[1]! } : null;
    },
    error: sunoError,
    check: checkBearer,
    handle: submit,
  },
  {
    key: 'suno.fetch',
    method: 'POST',
    match: (path) => (path === '/suno/fetch' ? {} : null),
    error: sunoError,
    check: checkBearer,
    handle: fetchMany,
  },
  {
    key: 'suno.fetch',
    method: 'GET',
    match: (path) => {
      const match = /^\/suno\/fetch\/([^/]+)$/.exec(path);
      return match ? { id: match[1]! } : null;
    },
    error: sunoError,
    check: checkBearer,
    handle: fetchOne,
  },
];
