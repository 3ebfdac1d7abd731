/** One invalid field of a request, as the API lists it in `errors`. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * The one error type of the client: an error answer of the API with its problem+json
 * (RFC 9457) fields, or a call that got no answer (`status` 0, `code` `network_error`), or a
 * `waitForResults` that ran out of time (`status` 0, `code` `wait_timeout`).
 */
export class VouchError extends Error {
  override readonly name = 'VouchError';
  /** HTTP status; 0 when no answer came. */
  readonly status: number;
  /** Stable machine word: `invalid_request`, `unauthenticated`, `not_found`, `rate_limited`, … */
  readonly code: string;
  readonly detail: string;
  /** Invalid fields of a 400. */
  readonly errors: FieldError[];
  /** The server's request id (`X-Request-Id`): quote it in bug reports. */
  readonly requestId?: string;
  readonly title?: string;
  readonly type?: string;
  /** `Retry-After` of a 429 or 503, in seconds. */
  readonly retryAfter?: number;
  /** The decoded body of the answer, if any. */
  readonly body?: unknown;

  constructor(init: {
    status: number;
    code: string;
    detail?: string;
    errors?: FieldError[];
    requestId?: string;
    title?: string;
    type?: string;
    retryAfter?: number;
    body?: unknown;
    cause?: unknown;
  }) {
    const detail = init.detail ?? '';
    super(init.status ? `${init.status} ${init.code}: ${detail}` : `${init.code}: ${detail}`, {
      cause: init.cause,
    });
    this.status = init.status;
    this.code = init.code;
    this.detail = detail;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId;
    this.title = init.title;
    this.type = init.type;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
  }
}
