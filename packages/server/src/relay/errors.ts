import { type Language, type MessageCode, relayBodyReason, translate } from '@gateway/shared';

const CLAUDE_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'request_too_large',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function claudeErrorType(status: number): string {
  return CLAUDE_ERROR_TYPES[status] ?? 'api_error';
}

// google.rpc.Code names, as Gemini clients read them from `error.status`.
const GOOGLE_STATUSES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'INVALID_ARGUMENT',
  413: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** Messages whose parameters are English text the server cannot translate. */
const ENGLISH_DETAIL_CODES: ReadonlySet<MessageCode> = new Set<MessageCode>(['relay_conversion_unsupported']);

/** A catalogue message and its parameters: the fact behind an error's text. */
export interface RelayWords {
  code: MessageCode;
  params?: Record<string, string | number>;
}

/**
 * The text of our words in one language. Used for the caller's answer and again for each reader of the usage log, so
 * both follow the same rules about parameters that are English text.
 */
export function wordsText(words: RelayWords, lang: Language): string {
  const { code, params } = words;
  if (code === 'relay_body_invalid' && typeof params?.reason === 'string') {
    // The checks name the reason in English: one language per message, the reader's when the reason has it.
    const reason = relayBodyReason(params.reason, lang);
    return reason === null ? translate(code, 'en', params) : translate(code, lang, { ...params, reason });
  }
  // What a conversion cannot express is named in English (often built from the request's own field names):
  // the whole message is English then, never a Chinese sentence around an English phrase.
  return translate(code, ENGLISH_DETAIL_CODES.has(code) ? 'en' : lang, params);
}

export type ErrorFormat = 'openai' | 'claude' | 'gemini';

/** The error shape a relay route's clients read: Anthropic's on /v1/messages, Google's on Gemini routes. */
export function errorFormat(url: string): ErrorFormat {
  if (url.startsWith('/v1/messages')) return 'claude';
  if (url.startsWith('/v1beta/') || (url.startsWith('/v1/models/') && url.includes(':'))) return 'gemini';
  return 'openai';
}

/**
 * A relay failure in the OpenAI error shape `{error:{message,type,code}}` with a real HTTP status. The request id
 * is appended to the message (family convention) so a user's bug report can be matched to the log line.
 */
export class RelayError extends Error {
  /** Seconds until the caller may try again, sent as Retry-After with a 429 (the upstream's when it gave one). */
  retryAfter?: number;
  /** What really happened upstream (host, library error, the body of an error page): for admins' eyes only. */
  detail?: string;
  /**
   * The catalogue message the text was built from, when it is ours: the usage log stores it so each reader sees it in
   * their own language. Absent for text we only pass on (an upstream's own error message).
   */
  words?: RelayWords;

  constructor(
    readonly status: number,
    message: string,
    readonly type = 'new_api_error',
    readonly code: string | null = null,
    /** Errors that say nothing about the channel (bad input, no quota) are never retried. */
    readonly retriable = false,
  ) {
    super(message);
  }

  static of(
    status: number,
    lang: Language,
    code: MessageCode,
    params?: Record<string, string | number>,
    errorCode: string | null = code,
  ): RelayError {
    return RelayError.worded(status, lang, params ? { code, params } : { code }, 'new_api_error', errorCode);
  }

  /** An error in our own words: the caller reads them in their language, and the log keeps the code for its readers. */
  static worded(
    status: number,
    lang: Language,
    words: RelayWords,
    type = 'new_api_error',
    errorCode: string | null = null,
  ): RelayError {
    const error = new RelayError(status, wordsText(words, lang), type, errorCode);
    error.words = words;
    return error;
  }

  body(requestId: string, format: ErrorFormat = 'openai') {
    const message = `${this.message} (request id: ${requestId})`;
    // Anthropic clients read `{type:'error', error:{type, message}}`.
    if (format === 'claude') return { type: 'error', error: { type: claudeErrorType(this.status), message } };
    if (format === 'gemini') {
      return { error: { code: this.status, message, status: GOOGLE_STATUSES[this.status] ?? 'INTERNAL' } };
    }
    return { error: { message, type: this.type, code: this.code } };
  }

  /**
   * The error as the last event of a stream whose 200 status is already sent: each format's SDK throws on it
   * (OpenAI and Google read an `error` field in the data, Anthropic an `error` event).
   */
  event(requestId: string, format: ErrorFormat): string {
    const data = JSON.stringify(this.body(requestId, format));
    return format === 'claude' ? `event: error\ndata: ${data}\n\n` : `data: ${data}\n\n`;
  }
}

/**
 * Upstream error text with the channel's keys blanked out: some OpenAI-compatible proxies quote the key they were
 * sent ("invalid key sk-…"), and that text goes to the caller and into their log.
 */
export function redactChannelKeys(text: string, channel: { key: string; keys?: readonly string[] }): string {
  let result = text;
  for (const key of new Set([channel.key, ...(channel.keys ?? [])])) {
    // Very short keys would blank ordinary words; real keys are long.
    if (key.length >= 8) result = result.replaceAll(key, '***');
  }
  return result;
}
