import { isMultipart } from './body.js';
import { answerBytes, answerJson, type Exchange, sendJson } from './exchange.js';
import { jsonBody, openaiAuth, openaiError, openaiJsonCheck } from './openai.js';
import { type ErrorReply, exact, type Route } from './route.js';
import { buildReply, countWords, embeddingBase64, embeddingFor, isRecord, mockId, okOptions, unixNow } from './text.js';

/** The fixed model list of `GET /v1/models`; exported so tests can compare against it. */
export const OPENAI_MODELS = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-3.5-turbo',
  'text-embedding-3-small',
  'dall-e-3',
  'tts-1',
  'whisper-1',
  'omni-moderation-latest',
] as const;

const requestId = () => ({ 'x-request-id': mockId('req_') });

/** Prompt tokens of an embeddings input: words of each string, or the length of each token array. */
function embeddingInputs(input: unknown): { texts: string[]; tokens: number } {
  const list: unknown[] =
    Array.isArray(input) && input.length > 0 && typeof input[0] === 'number'
      ? [input]
      : Array.isArray(input)
        ? input
        : [input];
  let tokens = 0;
  const texts = list.map((item) => {
    if (Array.isArray(item)) {
      tokens += item.length;
      return item.join(',');
    }
    const text = typeof item === 'string' ? item : '';
    tokens += countWords(text);
    return text;
  });
  return { texts, tokens };
}

async function embeddings(ex: Exchange): Promise<void> {
  const body = jsonBody(ex);
  const { texts, tokens } = embeddingInputs(body.input);
  const usage = okOptions(ex.behaviour).usage;
  // The SDK asks for base64 unless the caller chose a format, and decodes it as little-endian float32.
  const base64 = body.encoding_format === 'base64';
  await answerJson(
    ex,
    {
      object: 'list',
      data: texts.map((text, index) => {
        const values = embeddingFor(text);
        return { object: 'embedding', index, embedding: base64 ? embeddingBase64(values) : values };
      }),
      model: String(body.model),
      ...(usage === 'none'
        ? {}
        : { usage: { prompt_tokens: usage?.prompt ?? tokens, total_tokens: usage?.prompt ?? tokens } }),
    },
    requestId(),
  );
}

const MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/instructions',
  'self-harm/intent',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
];

/** One result per input text; a text containing `[flag]` is flagged for violence, so tests can get both answers. */
async function moderations(ex: Exchange): Promise<void> {
  const body = jsonBody(ex);
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const texts = inputs.every((item) => isRecord(item))
    ? [inputs.map((item) => (isRecord(item) && typeof item.text === 'string' ? item.text : '')).join(' ')]
    : inputs.map((item) => (typeof item === 'string' ? item : ''));
  await answerJson(
    ex,
    {
      id: mockId('modr-'),
      model: typeof body.model === 'string' ? body.model : 'omni-moderation-latest',
      results: texts.map((text) => {
        const flagged = text.includes('[flag]');
        return {
          flagged,
          categories: Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, flagged && c === 'violence'])),
          category_scores: Object.fromEntries(
            MODERATION_CATEGORIES.map((c) => [c, flagged && c === 'violence' ? 0.9876 : 0.0001]),
          ),
        };
      }),
    },
    requestId(),
  );
}

// A valid 1×1 PNG, for `response_format: b64_json`.
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** `n` images; gpt-image models also report token usage (input = prompt words, output = 100 per image). */
async function images(ex: Exchange): Promise<void> {
  const source = isMultipart(ex.body) ? ex.body.fields : jsonBody(ex);
  const prompt = String(source.prompt ?? '');
  const n = Math.max(1, Number(source.n ?? 1) || 1);
  const model = String(source.model ?? 'dall-e-2');
  const b64 = source.response_format === 'b64_json' || model.startsWith('gpt-image');
  const ok = okOptions(ex.behaviour);
  const usage =
    model.startsWith('gpt-image') && ok.usage !== 'none'
      ? {
          input_tokens: ok.usage?.prompt ?? countWords(prompt),
          output_tokens: ok.usage?.completion ?? 100 * n,
          total_tokens: (ok.usage?.prompt ?? countWords(prompt)) + (ok.usage?.completion ?? 100 * n),
          input_tokens_details: { text_tokens: ok.usage?.prompt ?? countWords(prompt), image_tokens: 0 },
        }
      : undefined;
  await answerJson(
    ex,
    {
      created: unixNow(),
      data: Array.from({ length: n }, (_, i) =>
        b64
          ? { b64_json: PIXEL_PNG, revised_prompt: prompt }
          : { url: `https://images.mock-upstream.test/image-${i + 1}.png`, revised_prompt: prompt },
      ),
      ...(usage ? { usage } : {}),
    },
    requestId(),
  );
}

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** Speech bytes: 32 per character of `input` (at least 32), starting with an ID3 tag; the same input, the same bytes. */
export function speechBytes(input: string): Buffer {
  const bytes = Buffer.alloc(32 * Math.max(1, input.length));
  for (let i = 0; i < bytes.length; i++) bytes[i] = i % 251;
  bytes.write('ID3', 0, 'latin1');
  return bytes;
}

async function speech(ex: Exchange): Promise<void> {
  const body = jsonBody(ex);
  const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
  await answerBytes(ex, speechBytes(String(body.input ?? '')), AUDIO_TYPES[format] ?? 'audio/mpeg', requestId());
}

function audioCheck(ex: Exchange): ErrorReply | null {
  const auth = openaiAuth(ex);
  if (auth) return auth;
  if (!isMultipart(ex.body)) {
    return openaiError({ status: 400, message: 'Invalid Content-Type header (expected multipart/form-data).' });
  }
  if (!ex.body.files.some((f) => f.field === 'file')) {
    return openaiError({ status: 400, message: "Missing required parameter: 'file'.", param: 'file' });
  }
  if (!ex.body.fields.model) {
    return openaiError({ status: 400, message: 'you must provide a model parameter', param: 'model' });
  }
  return null;
}

/** Seconds of "audio": one per started 16,000 bytes of the upload (at least 1). */
export function audioDuration(size: number): number {
  return Math.max(1, Math.ceil(size / 16000));
}

function audioHandler(task: 'transcribe' | 'translate') {
  return async (ex: Exchange): Promise<void> => {
    if (!isMultipart(ex.body)) return;
    const { fields, files } = ex.body;
    const file = files.find((f) => f.field === 'file');
    const duration = audioDuration(file?.size ?? 0);
    const reply = buildReply('openai', fields.model, ex.behaviour, { words: 0, messages: 0 });
    const format = fields.response_format ?? 'json';
    const usage = reply.usage ? { usage: { type: 'duration', seconds: duration } } : {};
    if (format === 'text' || format === 'srt' || format === 'vtt') {
      const cue = `00:00:00,000 --> 00:00:${String(Math.min(duration, 59)).padStart(2, '0')},000`;
      const text =
        format === 'text'
          ? `${reply.text}\n`
          : format === 'srt'
            ? `1\n${cue}\n${reply.text}\n\n`
            : `WEBVTT\n\n${cue.replaceAll(',', '.')}\n${reply.text}\n\n`;
      await answerBytes(ex, Buffer.from(text), 'text/plain; charset=utf-8', requestId());
      return;
    }
    if (format === 'verbose_json') {
      await answerJson(
        ex,
        {
          task,
          language: 'english',
          duration,
          text: reply.text,
          segments: [
            {
              id: 0,
              seek: 0,
              start: 0,
              end: duration,
              text: reply.text,
              tokens: [],
              temperature: 0,
              avg_logprob: -0.1,
              compression_ratio: 1,
              no_speech_prob: 0,
            },
          ],
          ...usage,
        },
        requestId(),
      );
      return;
    }
    await answerJson(ex, { text: reply.text, ...usage }, requestId());
  };
}

/** Jina/Cohere rerank: the score is the share of query words found in the document, minus a tiny index tie-break. */
async function rerank(ex: Exchange): Promise<void> {
  const body = jsonBody(ex);
  const query = String(body.query ?? '');
  const docs = (Array.isArray(body.documents) ? body.documents : []).map((d) =>
    typeof d === 'string' ? d : isRecord(d) && typeof d.text === 'string' ? d.text : '',
  );
  const queryWords = new Set(query.toLowerCase().split(/\s+/).filter(Boolean));
  const scored = docs.map((text, index) => {
    const words = new Set(text.toLowerCase().split(/\s+/).filter(Boolean));
    const overlap = [...queryWords].filter((w) => words.has(w)).length;
    const score = Number(((overlap + 1) / (queryWords.size + 1) - index * 0.001).toFixed(4));
    return { index, relevance_score: score, ...(body.return_documents ? { document: { text } } : {}) };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score);
  const topN = typeof body.top_n === 'number' ? body.top_n : scored.length;
  const ok = okOptions(ex.behaviour);
  const total = docs.reduce((sum, d) => sum + countWords(d), countWords(query));
  await answerJson(
    ex,
    {
      id: mockId('rerank-'),
      model: String(body.model),
      results: scored.slice(0, topN),
      ...(ok.usage === 'none' ? {} : { usage: { total_tokens: ok.usage?.prompt ?? total } }),
      meta: { billed_units: { search_units: 1 } },
    },
    requestId(),
  );
}

const CREATED = 1_715_367_049;

async function models(ex: Exchange): Promise<void> {
  const id = ex.params.model;
  const entry = (model: string) => ({ id: model, object: 'model', created: CREATED, owned_by: 'system' });
  if (id) {
    if (!(OPENAI_MODELS as readonly string[]).includes(id)) {
      const error = openaiError({
        status: 404,
        message: `The model '${id}' does not exist`,
        code: 'model_not_found',
        param: 'model',
      });
      sendJson(ex, error.status, error.body, error.headers);
      return;
    }
    await answerJson(ex, entry(id), requestId());
    return;
  }
  await answerJson(ex, { object: 'list', data: OPENAI_MODELS.map(entry) }, requestId());
}

export const openaiMediaRoutes: Route[] = [
  {
    key: 'openai.embeddings',
    method: 'POST',
    match: exact('/v1/embeddings'),
    error: openaiError,
    check: (ex) => openaiJsonCheck(ex, ['model', 'input']),
    handle: embeddings,
  },
  {
    key: 'openai.moderations',
    method: 'POST',
    match: exact('/v1/moderations'),
    error: openaiError,
    check: (ex) => openaiJsonCheck(ex, ['input']),
    handle: moderations,
  },
  {
    key: 'openai.images',
    method: 'POST',
    match: exact('/v1/images/generations', '/v1/images/edits'),
    error: openaiError,
    check: (ex) => (isMultipart(ex.body) ? openaiAuth(ex) : openaiJsonCheck(ex, ['prompt'])),
    handle: images,
  },
  {
    key: 'openai.speech',
    method: 'POST',
    match: exact('/v1/audio/speech'),
    error: openaiError,
    check: (ex) => openaiJsonCheck(ex, ['model', 'input']),
    handle: speech,
  },
  {
    key: 'openai.transcriptions',
    method: 'POST',
    match: exact('/v1/audio/transcriptions'),
    error: openaiError,
    check: audioCheck,
    handle: audioHandler('transcribe'),
  },
  {
    key: 'openai.translations',
    method: 'POST',
    match: exact('/v1/audio/translations'),
    error: openaiError,
    check: audioCheck,
    handle: audioHandler('translate'),
  },
  {
    key: 'openai.rerank',
    method: 'POST',
    match: exact('/v1/rerank', '/v2/rerank'),
    error: openaiError,
    check: (ex) => openaiJsonCheck(ex, ['model', 'query', 'documents']),
    handle: rerank,
  },
  {
    key: 'openai.models',
    method: 'GET',
    match: (path): Record<string, string> | null => {
      if (path === '/v1/models') return {};
      const one = /^\/v1\/models\/([^/:]+)$/.exec(path);
      return one ? { model: decodeURIComponent(one[1]) } : null;
    },
    error: openaiError,
    check: openaiAuth,
    handle: models,
  },
];
