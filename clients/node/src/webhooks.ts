import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from './types';

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The delivery is not authentic: a missing header, a stale timestamp or a wrong signature. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined> | Iterable<[string, string]>;

export interface VerifyOptions {
  /** Largest accepted distance of the timestamp from now; default 300 s. */
  toleranceSeconds?: number;
  /** Now, in unix seconds (tests). */
  now?: number;
}

function lowerHeaders(headers: WebhookHeaders): Map<string, string> {
  const out = new Map<string, string>();
  const entries: Iterable<[string, unknown]> =
    typeof (headers as Headers).entries === 'function' || Symbol.iterator in (headers as object)
      ? (headers as Iterable<[string, string]>)
      : Object.entries(headers as Record<string, unknown>);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out.set(lower, Array.isArray(value) ? value.join(lower === 'webhook-signature' ? ' ' : ',') : String(value));
  }
  return out;
}

function checkTimestamp(value: string | undefined, tolerance: number, now: number): void {
  if (value === undefined || !/^\d+$/.test(value.trim())) {
    throw new WebhookVerificationError('the timestamp header is missing or not unix seconds');
  }
  if (Math.abs(now - Number(value)) > tolerance) {
    throw new WebhookVerificationError('the timestamp is outside the tolerance');
  }
}

function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
    throw new WebhookVerificationError('the secret is not a whsec_ base64 secret');
  }
  return Buffer.from(encoded, 'base64');
}

function sameBytes(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Returns the delivered event `{id, type, created, data}` when the delivery is authentic, else
 * throws WebhookVerificationError. Each signature scheme present must verify:
 * - the contract's `x-service-signature` (hex HMAC-SHA256 over `<x-service-timestamp>.<body>`
 *   keyed by the whole secret string; `x-service-signature-previous` during a rotation);
 * - Standard Webhooks' `webhook-signature` (space-separated `v1,<base64>` over
 *   `<webhook-id>.<webhook-timestamp>.<body>` keyed by the base64 part of `whsec_…`).
 * `secret` may be several secrets (old and new during a rotation). `body` is the raw body as
 * received (a Buffer or the exact string), never re-serialised JSON. Constant-time comparisons.
 */
export function verifyWebhook(
  secret: string | string[],
  headers: WebhookHeaders,
  body: Buffer | Uint8Array | string,
  options: VerifyOptions = {},
): WebhookEvent {
  const secrets = Array.isArray(secret) ? secret : [secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '')) {
    throw new WebhookVerificationError('no secret given');
  }
  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const h = lowerHeaders(headers);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Date.now() / 1000;
  let schemes = 0;

  const standard = h.get('webhook-signature');
  if (standard !== undefined) {
    schemes++;
    const id = h.get('webhook-id');
    const timestamp = h.get('webhook-timestamp');
    if (!id) throw new WebhookVerificationError('webhook-id is missing');
    checkTimestamp(timestamp, tolerance, now);
    const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), raw]);
    const expected = secrets.map((s) => createHmac('sha256', standardKey(s)).update(signed).digest('base64'));
    let matched = false;
    for (const token of standard.split(' ')) {
      const comma = token.indexOf(',');
      if (comma < 0 || token.slice(0, comma) !== 'v1') continue;
      for (const candidate of expected) matched = sameBytes(candidate, token.slice(comma + 1)) || matched;
    }
    if (!matched) throw new WebhookVerificationError('no webhook-signature matches');
  }

  const service = h.get('x-service-signature');
  if (service !== undefined) {
    schemes++;
    const timestamp = h.get('x-service-timestamp');
    checkTimestamp(timestamp, tolerance, now);
    const signed = Buffer.concat([Buffer.from(`${timestamp}.`), raw]);
    const expected = secrets.map((s) => createHmac('sha256', s).update(signed).digest('hex'));
    const received = [service, h.get('x-service-signature-previous')].filter((v): v is string => !!v);
    let matched = false;
    for (const signature of received) {
      for (const candidate of expected) matched = sameBytes(candidate, signature.trim().toLowerCase()) || matched;
    }
    if (!matched) throw new WebhookVerificationError('x-service-signature does not match');
  }

  if (schemes === 0) {
    throw new WebhookVerificationError('no signature header (webhook-signature, x-service-signature)');
  }
  try {
    return JSON.parse(raw.toString('utf8')) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
