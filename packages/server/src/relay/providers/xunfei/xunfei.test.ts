import { describe, expect, it } from 'vitest';
import { newStreamState } from '../../stream/stream-state.js';
import { fromSparkAnswer, SparkAssembly, sparkRefusalStatus } from './frames.js';
import { sparkToOpenAi } from './stream.js';
import { sparkVersion } from './versions.js';

const frame = (status: number, content: string, usage?: Record<string, number>) => ({
  header: { code: 0, message: 'Success', sid: 'cht1', status },
  payload: {
    choices: { status, seq: 0, text: [{ content, role: 'assistant', index: 0 }] },
    ...(usage ? { usage: { text: usage } } : {}),
  },
});
const USAGE = { question_tokens: 2, prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 };

describe('Spark versions', () => {
  it.each([
    ['Spark-Max', '', { domain: 'generalv3.5', path: '/v3.5/chat' }],
    ['Spark-Pro-128K', '', { domain: 'pro-128k', path: '/chat/pro-128k' }],
    ['Spark-4.0-Ultra', '', { domain: '4.0Ultra', path: '/v4.0/chat' }],
    ['SparkDesk-v3.1', '', { domain: 'generalv3', path: '/v3.1/chat' }],
    ['SparkDesk', 'v3.5', { domain: 'generalv3.5', path: '/v3.5/chat' }],
    ['SparkDesk', '', { domain: 'generalv2', path: '/v2.1/chat' }],
  ])('%s (other %j) → %j', (model, other, expected) => {
    expect(sparkVersion(model, other, 'v2.1')).toEqual(expected);
  });
});

describe('Spark frames', () => {
  it('assembles the frames of a whole answer into one', () => {
    const assembly = new SparkAssembly();
    assembly.add(frame(0, 'Hel'));
    assembly.add(frame(2, 'lo', USAGE));
    const answer = fromSparkAnswer(JSON.parse(assembly.json()), 'SparkDesk-v3.5');
    expect(answer.choices[0]).toMatchObject({ message: { content: 'Hello' }, finish_reason: 'stop' });
    expect(answer.usage).toEqual({ prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 });
  });

  it.each([
    [0, null],
    [10013, 400],
    [10907, 400],
    [11200, 403],
    [11202, 429],
    [10110, 500],
  ])('code %s → %s', (code, status) => {
    expect(sparkRefusalStatus({ header: { code } })).toBe(status);
  });

  it('streams frames as chunks, the last with the usage', () => {
    const converter = sparkToOpenAi('SparkDesk-v3.5', true);
    const state = newStreamState();
    let out = converter.push({ data: JSON.stringify(frame(0, 'Hel')) }, state, 1);
    out += converter.push({ data: JSON.stringify(frame(2, 'lo', USAGE)) }, state, 2);
    out += converter.end(state);
    expect(state.text).toBe('Hello');
    expect(state.usage).toEqual({ prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 });
    expect(out).toContain('"finish_reason":"stop"');
    expect(out).toContain('"usage":{"prompt_tokens":4');
    const failed = converter.push({ data: '{"header":{"code":10014,"message":"output review"}}' }, newStreamState(), 3);
    expect(failed).toContain('"error":{"message":"output review","type":"upstream_error","code":"10014"}');
  });
});
