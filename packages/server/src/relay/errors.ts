import { type Language, type MessageCode, translate } from '@gateway/shared';

/**
 * A relay failure in the OpenAI error shape `{error:{message,type,code}}` with a real HTTP status. The request id
 * is appended to the message (family convention) so a user's bug report can be matched to the log line.
 */
export class RelayError extends Error {
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
    return new RelayError(status, translate(code, lang, params), 'new_api_error', errorCode);
  }

  body(requestId: string) {
    return { error: { message: `${this.message} (request id: ${requestId})`, type: this.type, code: this.code } };
  }
}
