import type { Endpoint } from '../endpoint.js';
import type { ResponsesRequest } from '../formats/responses/responses-wire.js';
import { parseResponsesRequest, responsesUsage, validateResponsesBody } from './responses.js';

/**
 * `POST /v1/responses/compact` (Codex CLI's remote compaction): the conversation so far goes to the upstream, which
 * answers one JSON `response.compaction` object with the condensed items; it is passed back as it came and billed
 * by its usage like any Responses call. Only channels whose upstream offers compaction serve it (OpenAI's
 * `/v1/responses/compact`, the Codex backend's); on any other the answer is a 400 saying the channel cannot, as the
 * family answers. A body without `model` is a 400 in the Responses shape, never a 404.
 */
export const responsesCompactEndpoint: Endpoint<ResponsesRequest> = {
  parse(request, lang) {
    // Compaction answers one JSON object: a `stream` flag is not passed on.
    const { stream: _stream, ...body } = validateResponsesBody(request.body, lang);
    return parseResponsesRequest(body as ResponsesRequest, request.headers);
  },
  serves: (provider) => provider.functions.compact !== undefined,
  plan(provider, channel, request, upstreamModel) {
    const compact = provider.functions.compact;
    if (!compact) return null;
    const body = JSON.stringify({ ...request.body, model: upstreamModel });
    return {
      call: compact.call(channel, body, upstreamModel, 'application/json'),
      read: {
        kind: 'json',
        convert(json, raw) {
          // A 2xx without the compacted items is a proxy's own JSON, not an answer (the conveyor says so: a 502).
          if (!Array.isArray(json.output)) throw new Error('not a compaction answer');
          return { body: raw, contentType: 'application/json', usage: responsesUsage(json), outputText: '' };
        },
      },
    };
  },
};
