import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { phaseOf, type ScriptedTask, taskStore } from '../task-script.js';
import { sendJsonBody } from './vendor-server.js';
import { answeredFault, scriptedTask } from './video-mock-kit.js';

/** Google's error body: `{error:{code,message,status}}`. */
export const googleError = (res: ServerResponse, code: number, status: string, message: string) =>
  sendJsonBody(res, code, { error: { code, message, status } });

export interface VeoTaskPayload {
  model: string;
  /** The operation's full name, as the submit answered it. */
  name: string;
  /** Vertex: the bucket prefix the request named (`parameters.storageUri`), so the video is written there. */
  storageUri?: string;
}

/** A new Veo operation for the prompt's script, kept in the mock's store. */
export function startOperation(
  scope: string,
  prompt: string,
  payload: Omit<VeoTaskPayload, 'name'>,
  nameOf: (id: string) => string,
): ScriptedTask<VeoTaskPayload> {
  const id = randomBytes(8).toString('hex');
  const task: ScriptedTask<VeoTaskPayload> = scriptedTask(id, prompt, { ...payload, name: nameOf(id) });
  taskStore<VeoTaskPayload>(scope).set(id, task);
  return task;
}

/**
 * Answers a poll of a Veo operation as Google does: `{name}` while it runs (no percentage: Google reports none),
 * `{name, done: true, error}` when it failed, `{name, done: true, response}` when finished (`response` from the
 * host: where the video is). The task script's faults come first.
 */
export function answerOperation(
  res: ServerResponse,
  task: ScriptedTask<VeoTaskPayload>,
  response: (task: ScriptedTask<VeoTaskPayload>, withVideo: boolean) => Record<string, unknown>,
) {
  if (answeredFault(res, task, () => googleError(res, 500, 'INTERNAL', 'Internal error encountered.'))) return;
  const phase = phaseOf(task);
  const name = task.payload.name;
  if (phase.state === 'queued' || phase.state === 'running') return sendJsonBody(res, 200, { name });
  if (phase.state === 'failed') {
    return sendJsonBody(res, 200, {
      name,
      done: true,
      error: { code: 13, message: 'Video generation failed: the mock was asked to fail.' },
    });
  }
  sendJsonBody(res, 200, { name, done: true, response: response(task, task.script !== 'no-url') });
}
