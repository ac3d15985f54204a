import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { faultOf, type ScriptedTask, scriptOf } from '../task-script.js';

/**
 * What every video mock does alike: the finished file it serves, the scripted faults of a poll, and a new task whose
 * course the prompt's marker decides (task-script.ts). The vendor's own paths, envelopes and statuses stay in its mock.
 */

/** A proxy's HTML error page. */
export const PROXY_PAGE = { contentType: 'text/html', body: '<html><body>502 Bad Gateway</body></html>' };

/** Envoy's plain-text answer when the vendor behind it dropped the connection (Volcengine's and MiniMax's fronts). */
export const ENVOY_RESET = {
  contentType: 'text/plain',
  body: 'upstream connect error or disconnect/reset before headers',
};

/** The finished file every video mock serves (a 2-second H.264 clip); tests compare downloads against it. */
export const VIDEO_FILE = readFileSync(new URL('../../fixtures/video/sample.mp4', import.meta.url));

/** The whole file, 200. */
export function sendVideo(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': VIDEO_FILE.length });
  res.end(VIDEO_FILE);
}

/**
 * `GET /files/<task id>.mp4` (or what `path` matches), the result URL the mock answered: the file for a task it knows,
 * `notFound` for any other. False when the request is no such GET, so the caller goes on routing it.
 */
export function answeredFileGet(
  request: { method: string; path: string },
  res: ServerResponse,
  tasks: ReadonlyMap<string, unknown>,
  notFound: () => void,
  path = /^\/files\/([^/]+)\.mp4$/,
): boolean {
  const file = path.exec(request.path);
  if (request.method !== 'GET' || !file) return false;
  if (tasks.has(file[1] ?? '')) sendVideo(res);
  else notFound();
  return true;
}

/** The file with `Range: bytes=a-b` answered 206, as a file store that takes ranges does (the whole file otherwise). */
export function sendVideoRange(res: ServerResponse, range: string | undefined): void {
  const match = /^bytes=(\d+)-(\d*)$/.exec(range ?? '');
  if (!match) {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': VIDEO_FILE.length, 'accept-ranges': 'bytes' });
    res.end(VIDEO_FILE);
    return;
  }
  const start = Number(match[1]);
  const end = match[2] ? Math.min(Number(match[2]), VIDEO_FILE.length - 1) : VIDEO_FILE.length - 1;
  res.writeHead(206, {
    'content-type': 'video/mp4',
    'content-length': end - start + 1,
    'content-range': `bytes ${start}-${end}/${VIDEO_FILE.length}`,
    'accept-ranges': 'bytes',
  });
  res.end(VIDEO_FILE.subarray(start, end + 1));
}

/** A new task: its course is the script the prompt's marker names (`[fail]`, `[progress]`, `[garbage]`…). */
export function scriptedTask<T>(id: string, prompt: string, payload: T, submittedAt = Date.now()): ScriptedTask<T> {
  return { id, script: scriptOf(prompt), fetches: 0, submittedAt, payload };
}

/**
 * Counts a poll of the task, then plays its scripted fault: `[garbage]` a 200 that is no JSON (as a proxy in front of
 * the vendor answers), `[500]` the vendor's own 500 (`serverError`, in its error shape). True when a fault answered,
 * so the caller answers the task's state only when it is false.
 */
export function answeredFault<T>(
  res: ServerResponse,
  task: ScriptedTask<T>,
  serverError: () => void,
  garbage: { contentType: string; body: string } = PROXY_PAGE,
): boolean {
  task.fetches += 1;
  const fault = faultOf(task);
  if (fault === 'garbage') {
    res.writeHead(200, { 'content-type': garbage.contentType });
    res.end(garbage.body);
    return true;
  }
  if (fault === 'error500') {
    serverError();
    return true;
  }
  return false;
}
