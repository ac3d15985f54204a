import { randomUUID } from 'node:crypto';
import { serializeMultipart } from '../../multipart.js';
import type { OpenOptions } from '../../provider.js';
import { sendUpstream, type UpstreamResponse } from '../../send.js';
import type { UpstreamCall } from '../../types.js';
import { wholeResponse } from '../refusal-in-body.js';
import type { DifyFile, DifyRequest } from './request.js';

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?,(.*)$/s;

/** Uploads one inline image to the app's file API (`POST /v1/files/upload`): its file id, or the refusal. */
async function upload(
  base: string,
  call: UpstreamCall,
  dataUrl: string,
  user: string,
  options: OpenOptions,
): Promise<string | UpstreamResponse> {
  const [, mime = 'image/jpeg', data = ''] = DATA_URL.exec(dataUrl) ?? [];
  const boundary = `gateway-${randomUUID()}`;
  const body = serializeMultipart(
    [
      { name: 'user', data: Buffer.from(user) },
      {
        name: 'file',
        filename: `image.${mime.replace(/^image\//, '')}`,
        contentType: mime,
        data: Buffer.from(data, 'base64'),
      },
    ],
    boundary,
  );
  const response = await sendUpstream(
    {
      method: 'POST',
      url: `${base}/v1/files/upload`,
      headers: {
        authorization: call.headers.authorization ?? '',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        accept: 'application/json',
      },
      body,
    },
    options,
  );
  if (response.statusCode < 200 || response.statusCode >= 300) return response;
  const text = await response.body.text();
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    if (typeof id === 'string' && id) return id;
  } catch {
    // answered below
  }
  // A 2xx without a file id: not the upload API's answer (a proxy's page…).
  return wholeResponse(502, text);
}

/**
 * The call with its inline images uploaded first (family): each `local_file` that still holds a data URL becomes the
 * id of its upload. A refused upload is the answer (its status maps like the chat's own). Calls without inline
 * images go as they are, unparsed.
 */
export async function withUploadedImages(
  call: UpstreamCall,
  options: OpenOptions,
): Promise<UpstreamCall | UpstreamResponse> {
  const text = typeof call.body === 'string' ? call.body : (call.body?.toString() ?? '');
  if (!text.includes('"local_file"')) return call;
  const request = JSON.parse(text) as DifyRequest;
  const base = call.url.replace(/\/v1\/chat-messages$/, '');
  const files: DifyFile[] = [];
  for (const file of request.files ?? []) {
    if (file.transfer_mode !== 'local_file' || !file.url?.startsWith('data:')) {
      files.push(file);
      continue;
    }
    const id = await upload(base, call, file.url, request.user, options);
    if (typeof id !== 'string') return id;
    files.push({ type: 'image', transfer_mode: 'local_file', upload_file_id: id });
  }
  return { ...call, body: JSON.stringify({ ...request, files }) };
}
