import type { Dispatcher } from 'undici';
import type { OpenOptions } from '../../provider.js';
import { sendUpstream, type UpstreamResponse } from '../../send.js';
import type { UpstreamCall } from '../../types.js';
import { UpstreamBody } from '../../upstream-exchange.js';
import { wholeResponse } from '../refusal-in-body.js';
import { FINISHED, type Prediction } from './response.js';
import { PREDICTION_EVENT } from './stream.js';

/** How often an unfinished prediction is asked after, once `Prefer: wait` has given up waiting. */
export const POLL_INTERVAL_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const get = (url: string, authorization: string, accept = 'application/json'): UpstreamCall => ({
  method: 'GET',
  url,
  headers: { authorization, accept },
});

async function readPrediction(response: UpstreamResponse): Promise<Prediction | null> {
  try {
    return JSON.parse(await response.body.text()) as Prediction;
  } catch {
    return null;
  }
}

/** A prediction that ended without output, as a problem-details error the conveyor maps (a failed run is 500). */
function unsuccessful(prediction: Prediction): UpstreamResponse {
  const detail = typeof prediction.error === 'string' ? prediction.error : `prediction ${prediction.status}`;
  return wholeResponse(500, JSON.stringify({ title: `Prediction ${prediction.status}`, detail, status: 500 }));
}

/**
 * A whole answer: the prediction is created with `Prefer: wait`, which usually answers it finished; one still
 * running is asked after at `urls.get` until it ends (or the relay's timeout passes).
 */
export async function runPrediction(call: UpstreamCall, options: OpenOptions): Promise<UpstreamResponse> {
  const created = await sendUpstream(call, options);
  if (created.statusCode < 200 || created.statusCode >= 300) return created;
  let prediction = await readPrediction(created);
  if (!prediction) return wholeResponse(502, '{"detail":"the prediction answer is not JSON"}');
  const deadline = Date.now() + options.timeoutMs;
  while (!FINISHED.has(prediction.status ?? '') && prediction.urls?.get) {
    if (options.cancellation?.aborted) throw new Error('the client left');
    if (Date.now() + POLL_INTERVAL_MS > deadline) {
      return wholeResponse(504, '{"detail":"the prediction did not finish in time"}');
    }
    await sleep(POLL_INTERVAL_MS);
    const polled = await sendUpstream(get(prediction.urls.get, call.headers.authorization ?? ''), options);
    if (polled.statusCode !== 200) return polled;
    prediction = (await readPrediction(polled)) ?? prediction;
  }
  return prediction.status === 'succeeded' ? wholeResponse(200, JSON.stringify(prediction)) : unsuccessful(prediction);
}

/**
 * A streamed answer: the prediction is created with `stream: true` and its `urls.stream` read as server-sent
 * events. The stream carries no token counts, so once it ends the finished prediction is fetched and passed on as
 * one more event (`prediction`) for the converter's usage.
 */
export async function streamPrediction(call: UpstreamCall, options: OpenOptions): Promise<UpstreamResponse> {
  const created = await sendUpstream(call, options);
  if (created.statusCode < 200 || created.statusCode >= 300) return created;
  const prediction = await readPrediction(created);
  if (!prediction?.urls?.stream) return wholeResponse(502, '{"detail":"the prediction has no stream URL"}');
  const authorization = call.headers.authorization ?? '';
  const upstream = await sendUpstream(get(prediction.urls.stream, authorization, 'text/event-stream'), options);
  if (upstream.statusCode !== 200) return upstream;
  const body = new UpstreamBody();
  // The conveyor stops reading through this body: stopping it stops the stream request underneath.
  body.controller = {
    abort: () => upstream.body.destroy(),
    pause() {},
    resume() {},
  } as unknown as Dispatcher.DispatchController;
  void (async () => {
    try {
      for await (const chunk of upstream.body) body.push(chunk);
      const finished = prediction.urls?.get
        ? await sendUpstream(get(prediction.urls.get, authorization), options)
        : null;
      const text = finished?.statusCode === 200 ? await finished.body.text() : '';
      if (text) body.push(Buffer.from(`\nevent: ${PREDICTION_EVENT}\ndata: ${text.replace(/\n/g, '')}\n\n`));
      body.finish();
    } catch (error) {
      body.finish(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  return { statusCode: 200, headers: upstream.headers, body };
}
