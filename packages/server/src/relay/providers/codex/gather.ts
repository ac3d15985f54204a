import { createParser } from 'eventsource-parser';
import type { UpstreamResponse } from '../../send.js';
import { wholeResponse } from '../refusal-in-body.js';

interface CodexEvent {
  type?: string;
  item?: Record<string, unknown>;
  output_index?: number;
  response?: { output?: unknown[]; error?: { code?: string; message?: string } | null; [key: string]: unknown };
  code?: string;
  message?: string;
}

/** The status a failed response's error code means (the rest are the backend's own failures). */
function failureStatus(code: string | undefined): number {
  if (code === 'rate_limit_exceeded' || code === 'usage_limit_reached') return 429;
  if (code === 'invalid_prompt' || code === 'context_length_exceeded') return 400;
  return 500;
}

/** An error answer in OpenAI's shape, which the provider's error reader takes apart again. */
const codexFailure = (status: number, message: string, code: string | null) =>
  wholeResponse(status, JSON.stringify({ error: { message, type: 'codex_error', code } }));

/**
 * The Codex backend only streams; a client that asked for a whole answer gets the stream's final response
 * (response.completed / response.incomplete) as one JSON response object. Its `output` is rebuilt from the
 * `response.output_item.done` events when the final event leaves it empty. A failed response or an `error` event
 * becomes an error answer with the status its code means, so the conveyor maps and retries it as any other.
 */
export function gatherResponse(streamText: string): UpstreamResponse {
  const items: Array<{ index: number; item: Record<string, unknown> }> = [];
  // Set from the parser's callback, so held in an object TypeScript does not narrow to its initial value.
  const seen: { final?: NonNullable<CodexEvent['response']>; failure?: { code?: string; message?: string } } = {};
  const parser = createParser({
    onEvent(event) {
      let body: CodexEvent;
      try {
        body = JSON.parse(event.data) as CodexEvent;
      } catch {
        return;
      }
      const type = body.type ?? event.event;
      if (type === 'response.output_item.done' && body.item) {
        items.push({ index: body.output_index ?? items.length, item: body.item });
      } else if ((type === 'response.completed' || type === 'response.incomplete') && body.response) {
        seen.final = body.response;
      } else if (type === 'response.failed') {
        seen.failure = body.response?.error ?? { message: 'response failed' };
      } else if (type === 'error') {
        seen.failure = { code: body.code, message: body.message };
      }
    },
  });
  parser.feed(streamText);
  if (seen.failure) {
    const { code, message } = seen.failure;
    return codexFailure(failureStatus(code), message || 'upstream error', code ?? null);
  }
  if (!seen.final) return codexFailure(502, 'the stream ended without a response', null);
  const output =
    Array.isArray(seen.final.output) && seen.final.output.length > 0
      ? seen.final.output
      : items.sort((a, b) => a.index - b.index).map((entry) => entry.item);
  return wholeResponse(200, JSON.stringify({ ...seen.final, output }));
}
