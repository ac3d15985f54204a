import { createParser } from 'eventsource-parser';
import type { UpstreamResponse } from '../../send.js';
import { wholeResponse } from '../refusal-in-body.js';
import { type DifyEvent, THINKING_CLOSE, THINKING_OPEN } from './response.js';

/**
 * Dify's agent apps only stream (blocking mode is refused with 400 "Agent Chat App does not support blocking
 * mode"), so every chat goes upstream as `streaming` and a client that asked for a whole answer gets the stream
 * gathered into the blocking answer's shape: the answer deltas joined (`message_replace` replaces them, as
 * moderation does), an agent's thoughts put in the thinking block the answer reader takes as reasoning, the usage
 * and ids from `message_end`. An `error` event becomes Dify's error body with its status, read as any refusal.
 */
export function gatherDifyStream(streamText: string): UpstreamResponse {
  let answer = '';
  let thoughts = '';
  const ends: { end?: DifyEvent; error?: DifyEvent } = {};
  const parser = createParser({
    onEvent(message) {
      let event: DifyEvent;
      try {
        event = JSON.parse(message.data) as DifyEvent;
      } catch {
        return;
      }
      if (event.event === 'message' || event.event === 'agent_message') answer += event.answer ?? '';
      else if (event.event === 'message_replace') answer = event.answer ?? '';
      else if (event.event === 'agent_thought' && event.thought) thoughts += `${event.thought}\n`;
      else if (event.event === 'message_end') ends.end = event;
      else if (event.event === 'error') ends.error = event;
    },
  });
  parser.feed(streamText);
  if (ends.error) {
    const { status = 500, code = 'dify_error', message = 'upstream error' } = ends.error;
    return wholeResponse(status, JSON.stringify({ code, message, status }));
  }
  const blocking: DifyEvent = {
    event: 'message',
    message_id: ends.end?.message_id,
    conversation_id: ends.end?.conversation_id,
    answer:
      thoughts && !answer.startsWith(THINKING_OPEN) ? `${THINKING_OPEN}${thoughts}${THINKING_CLOSE}${answer}` : answer,
    metadata: ends.end?.metadata,
  };
  return wholeResponse(200, JSON.stringify(blocking));
}
