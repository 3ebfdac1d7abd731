import { randomUUID } from 'node:crypto';
import { VouchError, type FieldError } from './errors';

export interface VouchOptions {
  /** Where vouchd serves, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** `vk_…`: sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** Per request, default 60 000 ms (a long poll adds its wait). */
  timeoutMs?: number;
  /** Retries of one call on 429/503 and on network errors of idempotent calls; default 3. */
  maxRetries?: number;
  /** Backoff: about base·2^attempt, capped at max, with jitter; defaults 500 and 8 000 ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A 429/503 asking to wait longer than this is raised at once; default 120 000 ms. */
  maxRetryAfterMs?: number;
  /** Replaces `globalThis.fetch` (a proxy agent, instrumentation). */
  fetch?: typeof fetch;
  /** Replaces the timer that waits between retries (tests record the waits). */
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** A body sent as is (with `contentType`) instead of JSON. */
  rawBody?: Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
  /** Sent as `Idempotency-Key` on a POST; generated (one per call, kept across retries) if absent. */
  idempotencyKey?: string;
  timeoutMs?: number;
  /** Answer the body as text instead of JSON. */
  text?: boolean;
  /** Answer the body as bytes instead of JSON. */
  binary?: boolean;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Seconds to wait from a `Retry-After` value (delta-seconds or an HTTP date). */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const when = Date.parse(text);
  return Number.isNaN(when) ? undefined : Math.max(0, (when - now) / 1000);
}

/**
 * Sends calls with their retries: on 429 and 503 (the server did not act) and on 409
 * `idempotency_key_in_use` (the first attempt of this POST is still being answered) after
 * `Retry-After` or a backoff; on a failed connection only for idempotent calls — GET, PUT, DELETE, and POST,
 * which always carries an `Idempotency-Key` (the same on every attempt) so that the server
 * answers a repeated POST with its first answer instead of acting twice.
 */
export class Transport {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  private readonly apiKey?: string;
  private readonly maxRetries: number;
  private readonly backoffBaseMs: number;
  private readonly backoffMaxMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly fetchImpl: typeof fetch;
  readonly sleep: (ms: number) => Promise<void>;

  constructor(options: VouchOptions) {
    if (!options || !options.baseUrl) throw new TypeError('baseUrl is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffMaxMs = options.backoffMaxMs ?? 8_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 120_000;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  backoff(attempt: number): number {
    const ceiling = Math.min(this.backoffMaxMs, this.backoffBaseMs * 2 ** attempt);
    return ceiling * (0.5 + Math.random() / 2);
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    let url = this.baseUrl + path;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined && value !== null) query.append(name, String(value));
    }
    if ([...query].length > 0) url += '?' + query.toString();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    } else if (options.rawBody !== undefined) {
      body = new Uint8Array(options.rawBody); // a copy over a plain ArrayBuffer, as fetch types it
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
    }
    if (method === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
    Object.assign(headers, options.headers);
    const retryOnNetwork = IDEMPOTENT.has(method) || 'idempotency-key' in headers;

    for (let attempt = 0; ; ++attempt) {
      let response: Response;
      let payload: string;
      let bytes: Buffer | undefined;
      try {
        response = await this.fetchImpl(url, {
          method,
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(options.timeoutMs ?? this.timeoutMs),
        });
        if (options.binary && response.ok) {
          bytes = Buffer.from(await response.arrayBuffer());
          payload = '';
        } else {
          payload = await response.text();
        }
      } catch (error) {
        if (retryOnNetwork && attempt < this.maxRetries) {
          await this.sleep(this.backoff(attempt));
          continue;
        }
        const reason = (error as { cause?: { code?: string; message?: string } }).cause;
        throw new VouchError({
          status: 0,
          code: 'network_error',
          detail: `${method} ${path}: ${reason?.code ?? reason?.message ?? (error as Error).message}`,
          cause: error,
        });
      }
      if (retryable(response.status, payload) && attempt < this.maxRetries) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        const wait = retryAfter === undefined ? this.backoff(attempt) : retryAfter * 1000;
        if (wait <= this.maxRetryAfterMs) {
          await this.sleep(wait);
          continue;
        }
      }
      // 3xx too: the API answers none, and following one would resend the key elsewhere.
      if (response.status >= 300) throw problemOf(response, payload);
      if (bytes !== undefined) return bytes as T;
      if (options.text) return payload as T;
      if (response.status === 204 || payload === '') return undefined as T;
      return JSON.parse(payload) as T;
    }
  }
}

/**
 * 429 and 503: the server did not act. 409 `idempotency_key_in_use`: the first attempt of this
 * POST is still being answered; a retry gets its answer once it is recorded.
 */
function retryable(status: number, payload: string): boolean {
  if (status === 429 || status === 503) return true;
  if (status !== 409) return false;
  try {
    return JSON.parse(payload)?.code === 'idempotency_key_in_use';
  } catch {
    return false;
  }
}

function problemOf(response: Response, payload: string): VouchError {
  let body: unknown = payload;
  try {
    body = payload ? JSON.parse(payload) : undefined;
  } catch {
    // not JSON: keep the text
  }
  const problem = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return new VouchError({
    status: response.status,
    code: typeof problem.code === 'string' ? problem.code : `http_${response.status}`,
    detail: typeof problem.detail === 'string' ? problem.detail : typeof body === 'string' ? body : '',
    errors: Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [],
    requestId:
      (typeof problem.requestId === 'string' ? problem.requestId : undefined) ??
      response.headers.get('x-request-id') ??
      undefined,
    title: typeof problem.title === 'string' ? problem.title : undefined,
    type: typeof problem.type === 'string' ? problem.type : undefined,
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    body,
  });
}
