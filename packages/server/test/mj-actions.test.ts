import { describe, expect, it } from 'vitest';
import {
  actionOfCustomId,
  clearModeFlags,
  modelForAction,
  parseSimpleChange,
  resolveAction,
} from '../src/relay/tasks/midjourney/actions.js';

describe('Midjourney actions (pure)', () => {
  it('bills each action as mj_<action>, face swapping as swap_face', () => {
    expect(['IMAGINE', 'UPSCALE', 'HIGH_VARIATION', 'CUSTOM_ZOOM', 'SWAP_FACE'].map(modelForAction)).toEqual([
      'mj_imagine',
      'mj_upscale',
      'mj_high_variation',
      'mj_custom_zoom',
      'swap_face',
    ]);
  });

  it.each([
    ['1234 U2', { taskId: '1234', action: 'UPSCALE', index: 2 }],
    ['1234 v4', { taskId: '1234', action: 'VARIATION', index: 4 }],
    ['1234 R', { taskId: '1234', action: 'REROLL', index: 1 }],
    ['  1234   u1 ', { taskId: '1234', action: 'UPSCALE', index: 1 }],
    ['1234 U5', null],
    ['1234 U', null],
    ['1234 X1', null],
    ['1234', null],
    ['1234 U1 extra', null],
  ])('reads the simple change %j', (content, expected) => {
    expect(parseSimpleChange(content)).toEqual(expected);
  });

  it.each([
    ['MJ::JOB::upsample::2::3dbbd469', 'UPSCALE'],
    ['MJ::JOB::variation::1::3dbbd469', 'VARIATION'],
    ['MJ::JOB::low_variation::1::3dbbd469::SOLO', 'LOW_VARIATION'],
    ['MJ::JOB::high_variation::1::3dbbd469::SOLO', 'HIGH_VARIATION'],
    ['MJ::JOB::pan_left::1::3dbbd469::SOLO', 'PAN'],
    ['MJ::JOB::reroll::0::3dbbd469::SOLO', 'REROLL'],
    ['MJ::Outpaint::50::1::3dbbd469::SOLO', 'ZOOM'],
    ['MJ::CustomZoom::3dbbd469', 'CUSTOM_ZOOM'],
    ['MJ::Inpaint::1::3dbbd469::SOLO', 'INPAINT'],
    ['MJ::JOB::something_else::1', null],
    ['garbage', null],
  ])('maps the button %s', (customId, expected) => {
    expect(actionOfCustomId(customId)).toBe(expected);
  });

  it('validates each submit kind and names its action, model and original task', () => {
    expect(resolveAction('imagine', { prompt: 'a cat' })).toEqual({
      ok: true,
      action: 'IMAGINE',
      model: 'mj_imagine',
      originTaskId: null,
    });
    expect(resolveAction('imagine', { prompt: '   ' })).toEqual({ ok: false, field: 'prompt' });
    expect(resolveAction('describe', {})).toEqual({ ok: false, field: 'base64' });
    expect(resolveAction('blend', { base64Array: [] })).toEqual({ ok: false, field: 'base64Array' });
    expect(resolveAction('upload-discord-images', { base64Array: ['x'] })).toMatchObject({ model: 'mj_upload' });
    expect(resolveAction('swap-face', { sourceBase64: 'a' })).toEqual({ ok: false, field: 'targetBase64' });
    expect(resolveAction('swap-face', { sourceBase64: 'a', targetBase64: 'b' })).toMatchObject({ model: 'swap_face' });
    expect(resolveAction('change', { taskId: '9', action: 'variation', index: 2 })).toEqual({
      ok: true,
      action: 'VARIATION',
      model: 'mj_variation',
      originTaskId: '9',
    });
    expect(resolveAction('change', { taskId: '9', action: 'PAN' })).toEqual({ ok: false, action: 'PAN' });
    expect(resolveAction('change', { action: 'UPSCALE' })).toEqual({ ok: false, field: 'taskId' });
    expect(resolveAction('simple-change', { content: '77 U3' })).toMatchObject({
      action: 'UPSCALE',
      originTaskId: '77',
    });
    expect(resolveAction('action', { taskId: '5', customId: 'MJ::Inpaint::1::x::SOLO' })).toMatchObject({
      action: 'INPAINT',
      model: 'mj_inpaint',
      originTaskId: '5',
    });
    expect(resolveAction('action', { taskId: '5' })).toEqual({ ok: false, field: 'customId' });
    expect(resolveAction('modal', { taskId: '5' })).toMatchObject({ action: 'MODAL', originTaskId: '5' });
    expect(resolveAction('shorten', { prompt: 'long prompt' })).toMatchObject({ model: 'mj_shorten' });
  });

  it('clears speed flags from a prompt (MjModeClearEnabled)', () => {
    expect(clearModeFlags('a cat --fast --ar 16:9')).toBe('a cat  --ar 16:9');
    expect(clearModeFlags('--relax a dog --turbo')).toBe('a dog');
    expect(clearModeFlags('a --fastidious cat')).toBe('a --fastidious cat');
  });
});
