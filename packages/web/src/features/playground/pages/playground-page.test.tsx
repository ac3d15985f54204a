import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setStoredUser } from '../../../lib/session';
import { type MockHandler, mockFetch, ok, type RecordedRequest } from '../../../test/fetch-mock';
import { fill, renderPage, setupUser } from '../../../test/render';
import { statusFixture } from '../../../test/status-fixture';
import PlaygroundPage from './playground-page';

const member = { id: 7, username: 'amy', display_name: 'Amy', role: 1, status: 1, group: 'default' };
const encoder = new TextEncoder();

function chunk(content: string): string {
  return `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`;
}

/** An SSE body the test feeds by hand, to watch the message between chunks. */
function controlledStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

function sse(...events: string[]): Response {
  return new Response(events.join(''), { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

function renderPlayground(chat: MockHandler) {
  setStoredUser(member);
  const api = mockFetch({
    'GET /api/status': ok(statusFixture()),
    'GET /api/user/self/groups': ok({ default: { desc: '默认分组', ratio: 1 }, vip: { desc: 'VIP', ratio: 0.5 } }),
    'GET /api/user/models': ok(['gpt-4o', 'gpt-4o-mini', 'claude-3-haiku']),
    'POST /pg/chat/completions': chat,
  });
  renderPage(<PlaygroundPage />, { path: '/playground' });
  return api;
}

async function send(user: ReturnType<typeof setupUser>, text: string) {
  const input = screen.getByTestId('playground-input');
  await fill(user, input, text);
  await user.keyboard('{Enter}');
}

const chats = (requests: RecordedRequest[]) => requests.filter((request) => request.path === '/pg/chat/completions');
const assistants = () =>
  screen.getByTestId('playground-messages').querySelectorAll<HTMLElement>('[data-role="assistant"]');

describe('playground', () => {
  it('sends the settings, the system prompt first and the history, with the family headers', async () => {
    const user = setupUser();
    let turn = 0;
    const { requests } = renderPlayground(() =>
      sse(chunk(turn++ === 0 ? 'First answer' : 'Second'), 'data: [DONE]\n\n'),
    );
    // The greeting is there from the start.
    expect(
      (await screen.findByText('你好，请问有什么可以帮助您的吗？')).closest('[data-state]')?.getAttribute('data-state'),
    ).toBe('complete');
    await screen.findByText('gpt-4o-mini', { selector: '.ant-select-content-value, .ant-select-selection-item, span' });

    await send(user, 'Hi there');
    await waitFor(() => expect(assistants()[1]?.getAttribute('data-state')).toBe('complete'));
    const [first] = chats(requests);
    expect(first!.body).toEqual({
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Hi there' },
      ],
      stream: true,
      model: 'gpt-4o-mini',
      group: 'default',
      temperature: 0,
    });
    expect(first!.headers.get('New-Api-User')).toBe('7');
    expect(first!.headers.get('Accept-Language')).toBe('zh');
    expect(first!.headers.get('Cache-Control')).toBe('no-store');

    const maxTokens = screen.getByTestId('playground-max-tokens');
    await fill(user, maxTokens, '256');
    await user.clear(screen.getByTestId('playground-system-prompt'));
    await fill(user, screen.getByTestId('playground-system-prompt'), 'Be brief.');
    await send(user, 'And again');
    await waitFor(() => expect(chats(requests)).toHaveLength(2));
    expect(chats(requests)[1]!.body).toEqual({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi there' },
        { role: 'assistant', content: 'First answer' },
        { role: 'user', content: 'And again' },
      ],
      stream: true,
      model: 'gpt-4o-mini',
      group: 'default',
      temperature: 0,
      max_tokens: 256,
    });
  });

  it('streams chunks into one message: loading, incomplete, complete', async () => {
    const user = setupUser();
    const stream = controlledStream();
    let answer!: (response: Response) => void;
    renderPlayground(() => new Promise<Response>((resolve) => (answer = resolve)));
    await screen.findByText('gpt-4o-mini', { selector: '.ant-select-content-value, .ant-select-selection-item, span' });
    await send(user, 'Count');

    await waitFor(() => expect(assistants()[1]?.getAttribute('data-state')).toBe('loading'));
    expect(screen.getByText('Count')).toBeTruthy();
    expect(screen.getByTestId('playground-stop')).toBeTruthy();

    answer(stream.response);
    stream.push(chunk('One, '));
    await waitFor(() => expect(assistants()[1]?.getAttribute('data-state')).toBe('incomplete'));
    expect(assistants()[1]!.textContent).toContain('One,');

    // An event split across two reads is put back together.
    const second = chunk('two.');
    stream.push(second.slice(0, 20));
    stream.push(`${second.slice(20)}data: [DONE]\n\n`);
    stream.close();
    await waitFor(() => expect(assistants()[1]?.getAttribute('data-state')).toBe('complete'));
    expect(assistants()).toHaveLength(2);
    expect(assistants()[1]!.textContent).toContain('One, two.');
    expect(await screen.findByTestId('playground-send')).toBeTruthy();
  });

  it('shows a 4xx error in the message, then regenerates it', async () => {
    const user = setupUser();
    let calls = 0;
    const { requests } = renderPlayground(() =>
      calls++ === 0
        ? new Response(
            JSON.stringify({ error: { message: '当前分组 vip 下没有可用渠道', type: 'new_api_error', code: null } }),
            {
              status: 403,
              headers: { 'Content-Type': 'application/json' },
            },
          )
        : sse(chunk('Recovered'), 'data: [DONE]\n\n'),
    );
    await screen.findByText('gpt-4o-mini', { selector: '.ant-select-content-value, .ant-select-selection-item, span' });
    await send(user, 'Hello');
    const error = await screen.findByTestId('playground-error');
    expect(error.textContent).toContain('当前分组 vip 下没有可用渠道');
    expect(assistants()[1]!.getAttribute('data-state')).toBe('error');

    await user.click(within(error).getByText('重新生成', { selector: 'button span' }).closest('button')!);
    await waitFor(() => expect(assistants()[1]?.getAttribute('data-state')).toBe('complete'));
    expect(assistants()[1]!.textContent).toContain('Recovered');
    expect(assistants()).toHaveLength(2);
    expect(chats(requests)[1]!.body).toMatchObject({
      messages: [{ role: 'system' }, { role: 'user', content: 'Hello' }],
    });
  });

  it('clears the context', async () => {
    const user = setupUser();
    const { requests } = renderPlayground(() => sse(chunk('Answer'), 'data: [DONE]\n\n'));
    await screen.findByText('gpt-4o-mini', { selector: '.ant-select-content-value, .ant-select-selection-item, span' });
    await send(user, 'Remember me');
    await waitFor(() => expect(assistants()[1]?.getAttribute('data-state')).toBe('complete'));

    await user.click(screen.getByTestId('playground-clear'));
    const list = screen.getByTestId('playground-messages');
    expect(list.querySelectorAll('[data-role]')).toHaveLength(0);
    expect(within(list).getByText('上下文已清除，发送一条消息开始新的对话')).toBeTruthy();

    await send(user, 'Fresh start');
    await waitFor(() => expect(chats(requests)).toHaveLength(2));
    expect(chats(requests)[1]!.body).toMatchObject({
      messages: [{ role: 'system' }, { role: 'user', content: 'Fresh start' }],
    });
  });

  it('renders the answer as sanitised markdown', async () => {
    const user = setupUser();
    renderPlayground(() =>
      sse(
        chunk('**bold** <img src="x" onerror="window.__pwned = 1"> <script>window.__pwned = 2</script>\n\n'),
        chunk('```js\nconst a = 1;\n```'),
        'data: [DONE]\n\n',
      ),
    );
    await screen.findByText('gpt-4o-mini', { selector: '.ant-select-content-value, .ant-select-selection-item, span' });
    await send(user, 'Say something');
    await waitFor(() => expect(assistants()[1]?.getAttribute('data-state')).toBe('complete'));
    const answer = assistants()[1]!;
    expect(answer.querySelector('strong')?.textContent).toBe('bold');
    expect(answer.querySelector('pre code')?.textContent).toContain('const a = 1;');
    expect(answer.querySelector('script')).toBeNull();
    expect(answer.querySelector('[onerror]')).toBeNull();
    for (const image of answer.querySelectorAll('img')) expect(image.getAttribute('onerror')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });
});
