import { boundaryOf, parseMultipart } from '../../multipart.js';

/** A form upload's file, as its marker in the stored request (the bytes are never kept). */
export function fileMarker(filename: string, contentType: string, size: number): string {
  return `[file ${filename || '(unnamed)'}, ${contentType || 'application/octet-stream'}, ${size} bytes]`;
}

/**
 * The client's request body as text: JSON bodies as parsed (keys in the client's order; whitespace is not kept),
 * form uploads as their fields with each file replaced by a marker, anything else as it came.
 */
export function requestText(body: unknown, contentType: string | undefined): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) {
    const boundary = boundaryOf(contentType);
    if (!boundary) return body.toString('utf8');
    const fields: Record<string, string> = {};
    for (const part of parseMultipart(body, boundary)) {
      fields[part.name] =
        part.filename === undefined
          ? part.data.toString('utf8')
          : fileMarker(part.filename, part.contentType ?? '', part.data.length);
    }
    return JSON.stringify(fields);
  }
  return JSON.stringify(body);
}
