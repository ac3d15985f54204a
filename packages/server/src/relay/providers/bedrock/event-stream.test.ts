import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { encodeEventMessage } from '../../../../test/mock-upstream/providers/bedrock-wire.js';
import { EventStreamDecoder, EventStreamError, streamItem } from './event-stream.js';

// Frames built by AWS's own codec (@smithy/eventstream-codec, what the AWS SDKs decode with) are the oracle.
const codec = new EventStreamCodec(toUtf8, fromUtf8);
const frame = (headers: Parameters<typeof codec.encode>[0]['headers'], body: string) =>
  Buffer.from(codec.encode({ headers, body: fromUtf8(body) }));

const event = (type: string, body: string) =>
  frame(
    {
      ':event-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body,
  );

const LAST = event('messageStop', '{"stopReason":"end_turn"}');
const STREAM = Buffer.concat([
  event('messageStart', '{"role":"assistant"}'),
  event('contentBlockDelta', '{"contentBlockIndex":0,"delta":{"text":"héllo 你好"}}'),
  LAST,
]);

const decodeAll = (chunks: Buffer[]) => {
  const decoder = new EventStreamDecoder();
  const items = chunks.flatMap((chunk) => decoder.push(chunk)).map(streamItem);
  return { items, pending: decoder.pending };
};

const EXPECTED = [
  { kind: 'event', type: 'messageStart', payload: Buffer.from('{"role":"assistant"}') },
  {
    kind: 'event',
    type: 'contentBlockDelta',
    payload: Buffer.from('{"contentBlockIndex":0,"delta":{"text":"héllo 你好"}}'),
  },
  { kind: 'event', type: 'messageStop', payload: Buffer.from('{"stopReason":"end_turn"}') },
];

describe('EventStreamDecoder', () => {
  it('reads three messages sent whole, in one chunk', () => {
    expect(decodeAll([STREAM])).toEqual({ items: EXPECTED, pending: 0 });
  });

  it.each(Array.from({ length: STREAM.length - 1 }, (_, i) => i + 1))('reads them split at byte %i', (at) => {
    expect(decodeAll([STREAM.subarray(0, at), STREAM.subarray(at)])).toEqual({ items: EXPECTED, pending: 0 });
  });

  it('reads them one byte at a time', () => {
    expect(decodeAll([...STREAM].map((byte) => Buffer.from([byte])))).toEqual({ items: EXPECTED, pending: 0 });
  });

  it('keeps a partial message pending', () => {
    expect(decodeAll([STREAM.subarray(0, STREAM.length - 3)])).toEqual({
      items: EXPECTED.slice(0, 2),
      pending: LAST.length - 3,
    });
  });

  it("decodes every header type AWS's codec writes", () => {
    const bytes = frame(
      {
        yes: { type: 'boolean', value: true },
        no: { type: 'boolean', value: false },
        byte: { type: 'byte', value: -3 },
        short: { type: 'short', value: 300 },
        int: { type: 'integer', value: 70000 },
        raw: { type: 'binary', value: new Uint8Array([1, 2]) },
        text: { type: 'string', value: 'ü' },
        when: { type: 'timestamp', value: new Date(1_700_000_000_123) },
      },
      '',
    );
    const [message] = new EventStreamDecoder().push(bytes);
    expect(message!.headers).toEqual({
      yes: true,
      no: false,
      byte: -3,
      short: 300,
      int: 70000,
      raw: Buffer.from([1, 2]),
      text: 'ü',
      when: new Date(1_700_000_000_123),
    });
  });

  it('agrees with the mock’s own encoder', () => {
    const mine = encodeEventMessage(
      { ':event-type': 'chunk', ':message-type': 'event' },
      Buffer.from('{"bytes":"e30="}'),
    );
    const aws = frame(
      { ':event-type': { type: 'string', value: 'chunk' }, ':message-type': { type: 'string', value: 'event' } },
      '{"bytes":"e30="}',
    );
    expect(mine).toEqual(aws);
  });

  it.each([
    ['the message checksum', STREAM.length - 1],
    ['the prelude checksum', 9],
    ['a payload byte', 40],
    ['the total length', 3],
  ])('refuses a message whose %s is wrong', (_what, at) => {
    const broken = Buffer.from(STREAM);
    broken[at]! ^= 0x01;
    expect(() => decodeAll([broken])).toThrow(EventStreamError);
  });

  it.each([
    [
      'an exception',
      frame(
        {
          ':exception-type': { type: 'string', value: 'throttlingException' },
          ':content-type': { type: 'string', value: 'application/json' },
          ':message-type': { type: 'string', value: 'exception' },
        },
        '{"message":"Too many requests, please wait before trying again."}',
      ),
      {
        kind: 'exception',
        type: 'throttlingException',
        message: 'Too many requests, please wait before trying again.',
      },
    ],
    [
      'an error',
      frame(
        {
          ':error-code': { type: 'string', value: 'InternalFailure' },
          ':error-message': { type: 'string', value: 'boom' },
          ':message-type': { type: 'string', value: 'error' },
        },
        '',
      ),
      { kind: 'exception', type: 'InternalFailure', message: 'boom' },
    ],
  ])('reads %s message', (_what, bytes, expected) => {
    expect(decodeAll([bytes]).items).toEqual([expected]);
  });
});
