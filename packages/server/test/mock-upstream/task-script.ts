/**
 * How a mock task (Midjourney or Suno) unfolds, chosen by a marker in its prompt, one step per time the task is
 * fetched, so a test that polls explicitly sees each state in order:
 * - default: the first fetch finds it finished (SUCCESS, 100 %);
 * - `[progress]`: first IN_PROGRESS at 50 %, then SUCCESS;
 * - `[fail]`: the first fetch finds it FAILURE with a reason;
 * - `[slow]`: IN_PROGRESS at 10 % forever (for timeouts);
 * - the vendor faults (video mocks): `[garbage]` the poll answers 200 with text that is not JSON, `[500]` the poll
 *   answers HTTP 500 in the vendor's error shape, `[no-url]` the task succeeds without a result URL. A mock checks
 *   `fault` before answering; the phase of such a task is `running` at 0 % (garbage, 500) or `done` (no-url).
 * Tasks are kept per mock server (keyed by its base URL), so two mocks in one test run never share ids.
 */

export type TaskScript = 'success' | 'progress' | 'fail' | 'slow' | 'garbage' | 'error500' | 'no-url';

export interface ScriptedTask<T> {
  id: string;
  script: TaskScript;
  fetches: number;
  submittedAt: number;
  payload: T;
}

export type TaskPhase =
  | { state: 'queued' }
  | { state: 'running'; percent: number }
  | { state: 'done' }
  | { state: 'failed' };

export function scriptOf(prompt: string): TaskScript {
  if (prompt.includes('[garbage]')) return 'garbage';
  if (prompt.includes('[500]')) return 'error500';
  if (prompt.includes('[no-url]')) return 'no-url';
  if (prompt.includes('[fail]')) return 'fail';
  if (prompt.includes('[slow]')) return 'slow';
  if (prompt.includes('[progress]')) return 'progress';
  return 'success';
}

/** The task's state at its current fetch count (call `advance` first when a fetch happens). */
export function phaseOf(task: Pick<ScriptedTask<unknown>, 'script' | 'fetches'>): TaskPhase {
  if (task.fetches === 0) return { state: 'queued' };
  switch (task.script) {
    case 'fail':
      return { state: 'failed' };
    case 'slow':
      return { state: 'running', percent: 10 };
    case 'garbage':
    case 'error500':
      return { state: 'running', percent: 0 };
    case 'progress':
      return task.fetches === 1 ? { state: 'running', percent: 50 } : { state: 'done' };
    default:
      return { state: 'done' };
  }
}

const stores = new Map<string, Map<string, ScriptedTask<unknown>>>();

export function taskStore<T>(scope: string): Map<string, ScriptedTask<T>> {
  let store = stores.get(scope);
  if (!store) {
    store = new Map();
    stores.set(scope, store);
  }
  return store as Map<string, ScriptedTask<T>>;
}

let counter = 0;

/** The fault a mock answers a poll of this task with instead of its state, or null for an honest answer. */
export function faultOf(task: Pick<ScriptedTask<unknown>, 'script'>): 'garbage' | 'error500' | null {
  return task.script === 'garbage' || task.script === 'error500' ? task.script : null;
}

/** Midjourney ids are 16-digit numbers (Discord-style); Suno ids are UUIDs. */
export function numericTaskId(): string {
  counter += 1;
  return `17${String(Date.now()).slice(-10)}${String(counter).padStart(4, '0')}`;
}
