import type { ChannelView } from '@gateway/shared';
import type { ChannelRow } from '../../db/schema.js';
import { nativeResponsesMisses } from '../../relay/endpoints/responses-mode.js';

/**
 * Optional texts a channel stores as NULL when none was given: the family's consoles read "" as "none" and run
 * string methods on them, so they go out as "".
 */
const OPTIONAL_TEXTS = [
  'base_url',
  'other',
  'test_model',
  'model_mapping',
  'status_code_mapping',
  'param_override',
  'header_override',
  'setting',
  'settings',
] as const;

/**
 * What the console sees of a channel: every field except the key, which never leaves the server, and whether it is
 * reaching the Responses API through chat for now (relay/endpoints/responses-mode.ts).
 */
export function channelView(channel: ChannelRow) {
  const { key: _key, ...rest } = channel;
  const view: Record<string, unknown> = { ...rest, key: '' };
  for (const field of OPTIONAL_TEXTS) if (view[field] === null || view[field] === undefined) view[field] = '';
  const viaChatUntil = nativeResponsesMisses.viaChatUntil(channel.id);
  if (viaChatUntil !== null) view.responses_via_chat_until = viaChatUntil;
  return view as Omit<ChannelRow, 'key'> & { key: string } satisfies ChannelView;
}
