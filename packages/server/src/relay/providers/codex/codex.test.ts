import { describe, expect, it } from 'vitest';
import { parseCodexKey } from './credential.js';
import { gatherResponse } from './gather.js';
import { toCodexBody } from './request.js';

const sse = (...events: Array<Record<string, unknown>>) =>
  events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');

describe('Codex credential', () => {
  it('reads the access token and account id of the OAuth JSON, and nothing else', () => {
    expect(parseCodexKey(' {"access_token":" at ","account_id":"acc","refresh_token":"rt"} ')).toEqual({
      accessToken: 'at',
      accountId: 'acc',
    });
    expect(parseCodexKey('{"access_token":"at"}')).toBeNull();
    expect(parseCodexKey('sk-plain')).toBeNull();
    expect(parseCodexKey('{broken')).toBeNull();
  });
});

describe('Codex request body', () => {
  it('is streamed, unstored, has instructions, and drops the parameters the backend refuses', () => {
    expect(
      toCodexBody({
        model: 'gpt-5-codex',
        input: 'hi',
        stream: false,
        store: true,
        max_output_tokens: 10,
        temperature: 0.1,
        top_p: 0.5,
        user: 'u',
        metadata: { a: '1' },
        reasoning: { effort: 'high' },
      }),
    ).toEqual({
      model: 'gpt-5-codex',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      instructions: '',
      stream: true,
      store: false,
      reasoning: { effort: 'high' },
    });
    expect(toCodexBody({ model: 'm', instructions: 'Be brief.' }).instructions).toBe('Be brief.');
  });

  it('lists the text content of messages, leaving other items and listed content as they are', () => {
    const call = { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' };
    const listedAlready = { type: 'message', role: 'user', content: [{ type: 'input_image', image_url: 'https://x' }] };
    expect(
      toCodexBody({
        model: 'm',
        input: [
          { role: 'user', content: 'hi' },
          { type: 'message', role: 'assistant', content: 'yo' },
          call,
          listedAlready,
        ],
      }).input,
    ).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'yo' }] },
      call,
      listedAlready,
    ]);
  });
});

describe('Codex stream gathered into a whole response', () => {
  const message = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi' }] };
  const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] };

  it("rebuilds an empty final output from the finished items, in output order, keeping the final response's fields", async () => {
    const text = sse(
      { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } },
      { type: 'response.output_item.done', output_index: 1, item: message },
      { type: 'response.output_item.done', output_index: 0, item: reasoning },
      {
        type: 'response.completed',
        response: { id: 'resp_1', status: 'completed', output: [], usage: { input_tokens: 3, output_tokens: 2 } },
      },
    );
    const gathered = gatherResponse(text);
    expect(gathered.statusCode).toBe(200);
    expect(JSON.parse(await gathered.body.text())).toEqual({
      id: 'resp_1',
      status: 'completed',
      output: [reasoning, message],
      usage: { input_tokens: 3, output_tokens: 2 },
    });
  });

  it('keeps a final output that is there', async () => {
    const text = sse(
      { type: 'response.output_item.done', output_index: 0, item: reasoning },
      { type: 'response.incomplete', response: { id: 'r', status: 'incomplete', output: [message] } },
    );
    expect(JSON.parse(await gatherResponse(text).body.text()).output).toEqual([message]);
  });

  it.each([
    [{ type: 'response.failed', response: { error: { code: 'rate_limit_exceeded', message: 'slow down' } } }, 429],
    [{ type: 'response.failed', response: { error: { code: 'server_error', message: 'oops' } } }, 500],
    [{ type: 'error', code: 'context_length_exceeded', message: 'too long' }, 400],
  ])('answers %j with status %s and the error', async (event, status) => {
    const gathered = gatherResponse(sse(event));
    expect(gathered.statusCode).toBe(status);
    expect(JSON.parse(await gathered.body.text()).error.type).toBe('codex_error');
  });

  it('is a bad gateway answer when the stream ends without a response', () => {
    expect(gatherResponse(sse({ type: 'response.created', response: {} })).statusCode).toBe(502);
  });
});
