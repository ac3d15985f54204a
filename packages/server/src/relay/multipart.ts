/** One part of a multipart/form-data body. */
export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export function boundaryOf(contentType: string | undefined): string | null {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? '').trim() : null;
}

/**
 * Splits a multipart body into parts. The relay only needs the fields (model, response_format) and to rebuild the
 * body when the model is mapped; files are kept as bytes and never decoded.
 */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let position = body.indexOf(delimiter);
  while (position !== -1) {
    const start = position + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    // Part = CRLF headers CRLF CRLF data CRLF
    const section = body.subarray(start + 2, next - 2);
    const headerEnd = section.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = section.subarray(0, headerEnd).toString('utf8');
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
      const name = /name="([^"]*)"/i.exec(disposition)?.[1];
      if (name !== undefined) {
        parts.push({
          name,
          filename: /filename="([^"]*)"/i.exec(disposition)?.[1],
          contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim(),
          data: Buffer.from(section.subarray(headerEnd + 4)),
        });
      }
    }
    position = next;
  }
  return parts;
}

export function serializeMultipart(parts: FormPart[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let header = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) header += `; filename="${part.filename}"`;
    header += '\r\n';
    if (part.contentType) header += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${header}\r\n`), part.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

export function fieldOf(parts: FormPart[], name: string): string | undefined {
  return parts.find((part) => part.name === name && part.filename === undefined)?.data.toString('utf8');
}
