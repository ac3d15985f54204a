const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the bytes of the server-sent event in progress: those since the stream's last blank line, which ends every
 * event (dispatched or not). The SSE parser holds all of them (the line so far and the event's data lines), so
 * bounding them bounds what one stream makes the gateway hold, whatever the upstream sends: one endless line,
 * endless data lines without a blank one, or a body that is no event stream at all.
 */
export class EventSizeGuard {
  private inEvent = 0;
  private lastByte = -1;

  constructor(private readonly maxBytes: number) {}

  /** Counts `chunk`; false once the event in progress has grown past the limit. */
  fits(chunk: Buffer): boolean {
    if (chunk.length === 0) return true;
    const end = lastBlankLineEnd(chunk, this.lastByte);
    this.inEvent = end === -1 ? this.inEvent + chunk.length : chunk.length - end;
    this.lastByte = chunk[chunk.length - 1]!;
    return this.inEvent <= this.maxBytes;
  }
}

/**
 * The index just after the last blank line in `chunk` (-1 without one), `previous` being the byte before it. A
 * blank line is two line ends in a row, which always shows as "\n\n", "\r\r" or "\n\r" ("\r\n" is a single end).
 * Scanned from the end: a chunk of events usually ends with one, so this costs a step or two.
 */
export function lastBlankLineEnd(chunk: Buffer, previous: number): number {
  for (let index = chunk.length - 1; index >= 0; index--) {
    const byte = chunk[index];
    if (byte !== LF && byte !== CR) continue;
    const before = index > 0 ? chunk[index - 1] : previous;
    if (before === LF || (before === CR && byte === CR)) return index + 1;
  }
  return -1;
}
