import { describe, expect, it } from 'vitest';
import { deletePath, getPath, setPath } from '../../src/relay/overrides/json-path.js';
import { applyParamOverride, InvalidOverrideError } from '../../src/relay/overrides/param-override.js';

const vars = { original_model: 'gpt-4o', upstream_model: 'gpt-4o-2024-08-06' };
const chat = () => ({
  model: 'gpt-4o-2024-08-06',
  temperature: 0.9,
  max_tokens: 5000,
  messages: [
    { role: 'system', content: '  Be brief.  ' },
    { role: 'user', content: 'Hello' },
  ],
});
const run = (operations: unknown[], body: Record<string, unknown> = chat()) =>
  applyParamOverride(body, { operations }, vars);

describe('dotted JSON paths', () => {
  it('reads, writes and deletes through objects and arrays, negative indexes from the end', () => {
    const body: Record<string, unknown> = chat();
    expect(getPath(body, 'messages.-1.content')).toEqual({ found: true, value: 'Hello' });
    expect(getPath(body, 'messages.5.content').found).toBe(false);
    expect(setPath(body, 'metadata.user.id', 7)).toBe(true);
    expect(body.metadata).toEqual({ user: { id: 7 } });
    expect(setPath(body, 'messages.9.content', 'x')).toBe(false);
    expect(deletePath(body, 'messages.0')).toBe(true);
    expect((body.messages as unknown[]).length).toBe(1);
    expect(deletePath(body, 'nothing.here')).toBe(false);
  });
});

describe('param_override', () => {
  it('legacy flat form sets top-level keys and dotted paths', () => {
    const { body } = applyParamOverride(chat(), { temperature: 0.2, 'metadata.team': 'blue' }, vars);
    expect(body).toMatchObject({ temperature: 0.2, metadata: { team: 'blue' } });
  });

  it('set, keep_origin, delete, move and copy', () => {
    const { body } = run([
      { path: 'temperature', mode: 'set', value: 0.1 },
      { path: 'top_p', mode: 'set', value: 0.5, keep_origin: true },
      { path: 'temperature', mode: 'set', value: 1, keep_origin: true },
      { mode: 'move', from: 'max_tokens', to: 'max_completion_tokens' },
      { mode: 'copy', from: 'model', to: 'metadata.model' },
      { path: 'messages.0', mode: 'delete' },
    ]);
    expect(body).toMatchObject({ temperature: 0.1, top_p: 0.5, max_completion_tokens: 5000 });
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.metadata).toEqual({ model: 'gpt-4o-2024-08-06' });
    expect(body.messages).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('string edits: prefixes, suffixes, case, trimming, replace and regex replace', () => {
    const { body } = run([
      { path: 'messages.0.content', mode: 'trim_space' },
      { path: 'messages.0.content', mode: 'ensure_prefix', value: 'Note: ' },
      { path: 'messages.0.content', mode: 'ensure_prefix', value: 'Note: ' },
      { path: 'messages.1.content', mode: 'to_upper' },
      { path: 'messages.1.content', mode: 'append', value: '!' },
      { path: 'messages.1.content', mode: 'ensure_suffix', value: '!' },
      { path: 'model', mode: 'trim_suffix', value: '-2024-08-06' },
      { path: 'model', mode: 'replace', from: 'gpt', to: 'GPT' },
      { path: 'messages.0.content', mode: 'regex_replace', from: '\\s+', to: '_' },
    ]);
    expect(body.model).toBe('GPT-4o');
    expect(body.messages).toEqual([
      { role: 'system', content: 'Note:_Be_brief.' },
      { role: 'user', content: 'HELLO!' },
    ]);
  });

  it('prepend and append add to arrays too, and set a missing path', () => {
    const { body } = run([
      { path: 'messages', mode: 'prepend', value: { role: 'system', content: 'First' } },
      { path: 'stop', mode: 'append', value: ['END'] },
      { path: 'stop', mode: 'append', value: 'STOP' },
    ]);
    expect((body.messages as { content: string }[])[0]!.content).toBe('First');
    expect(body.stop).toEqual(['END', 'STOP']);
  });

  it('conditions: modes, invert, missing keys, context variables, AND/OR', () => {
    const { body } = run([
      {
        path: 'temperature',
        mode: 'set',
        value: 1,
        conditions: [{ path: 'original_model', mode: 'prefix', value: 'gpt-4' }],
      },
      { path: 'a', mode: 'set', value: 1, conditions: [{ path: 'max_tokens', mode: 'gt', value: 4096 }] },
      { path: 'b', mode: 'set', value: 1, conditions: [{ path: 'max_tokens', mode: 'lte', value: 4096 }] },
      {
        path: 'c',
        mode: 'set',
        value: 1,
        conditions: [{ path: 'model', mode: 'contains', value: 'mini', invert: true }],
      },
      { path: 'd', mode: 'set', value: 1, conditions: [{ path: 'user', mode: 'full', value: 'x' }] },
      {
        path: 'e',
        mode: 'set',
        value: 1,
        conditions: [{ path: 'user', mode: 'full', value: 'x', pass_missing_key: true }],
      },
      {
        path: 'f',
        mode: 'set',
        value: 1,
        logic: 'OR',
        conditions: [
          { path: 'model', mode: 'full', value: 'nope' },
          { path: 'upstream_model', mode: 'suffix', value: '08-06' },
        ],
      },
      {
        path: 'g',
        mode: 'set',
        value: 1,
        conditions: [
          { path: 'model', mode: 'full', value: 'nope' },
          { path: 'upstream_model', mode: 'suffix', value: '08-06' },
        ],
      },
    ]);
    expect(body).toMatchObject({ temperature: 1, a: 1, c: 1, e: 1, f: 1 });
    for (const absent of ['b', 'd', 'g']) expect(body).not.toHaveProperty(absent);
  });

  it('headers are collected, return_error stops with the configured answer', () => {
    const outcome = run([
      { path: 'X-Team', mode: 'set_header', value: 'blue' },
      { path: 'OpenAI-Organization', mode: 'delete_header' },
      {
        mode: 'return_error',
        value: { status_code: 403, code: 'model_blocked', message: 'Use gpt-4o-mini', skip_retry: true },
        conditions: [{ path: 'max_tokens', mode: 'gt', value: 4096 }],
      },
      { path: 'never', mode: 'set', value: true },
    ]);
    expect([...outcome.headers]).toEqual([
      ['x-team', 'blue'],
      ['openai-organization', null],
    ]);
    expect(outcome.refusal).toEqual({
      status: 403,
      code: 'model_blocked',
      message: 'Use gpt-4o-mini',
      skipRetry: true,
    });
    expect(outcome.body).not.toHaveProperty('never');
  });

  it('unknown modes, missing paths and bad regular expressions are configuration errors', () => {
    expect(() => run([{ path: 'x', mode: 'explode' }])).toThrow(InvalidOverrideError);
    expect(() => run([{ mode: 'set', value: 1 }])).toThrow(/needs "path"/);
    expect(() => run([{ path: 'model', mode: 'regex_replace', from: '(' }])).toThrow(/regular expression/);
    expect(() => run([{ path: 'x', mode: 'set', conditions: [{ path: 'model', mode: 'near' }] }])).toThrow(
      /condition mode/,
    );
  });
});
