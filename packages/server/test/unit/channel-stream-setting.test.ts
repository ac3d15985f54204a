import { describe, expect, it } from 'vitest';
import { openAiPassThrough } from '../../src/relay/formats/openai-chat/stream.js';
import { withChannelStreamSetting } from '../../src/relay/stream/channel-stream-setting.js';
import { newStreamState } from '../../src/relay/stream/stream-state.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'r1',
    provider_extra: { region: 'x' },
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

function relay(setting: Record<string, unknown> | null) {
  const converter = withChannelStreamSetting(openAiPassThrough(false), setting);
  const state = newStreamState();
  const events = [
    chunk({ role: 'assistant', reasoning_content: 'Let me ' }),
    chunk({ reasoning_content: 'think.' }),
    chunk({ content: 'Answer' }),
    chunk({}, 'stop'),
    '[DONE]',
  ];
  const output = events.map((data) => converter.push({ data }, state, 5)).join('') + converter.end(state);
  const parsed = output
    .split('\n\n')
    .filter((block) => block.startsWith('data: {'))
    .map((block) => JSON.parse(block.slice(6)));
  // The text billing reads when the upstream reports no usage, as the conveyor asks for it.
  const billingText = converter.outputText ? converter.outputText(state) : state.text;
  return { output, parsed, state, billingText };
}

describe('channel stream settings', () => {
  it('without settings, chunks pass through byte for byte', () => {
    const { output } = relay(null);
    expect(output).toContain('"provider_extra"');
    expect(output).toContain('"reasoning_content":"Let me "');
  });

  it('thinking_to_content wraps reasoning in <think> and keeps the billing text', () => {
    const { parsed, billingText, output } = relay({ thinking_to_content: true });
    const text = parsed.map((c) => c.choices[0].delta.content ?? '').join('');
    expect(text).toBe('<think>\nLet me think.\n</think>\nAnswer');
    expect(output).not.toContain('reasoning_content');
    expect(output.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(billingText).toBe('Let me think.Answer');
  });

  it('force_format keeps only the standard chunk fields', () => {
    const { parsed } = relay({ force_format: true });
    expect(parsed[0]).toEqual({
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'r1',
      choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Let me ' }, finish_reason: null }],
    });
  });
});
