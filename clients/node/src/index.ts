export { Vouch, OPERATIONS, MAX_POLL_WAIT_SECONDS, Projects, Tests, Webhooks, Events, Keys } from './client';
export type { OperationId, PostOptions, GenerateOptions, WaitForGenerationOptions } from './client';
export { VouchError } from './errors';
export type { FieldError } from './errors';
export { parseRetryAfter } from './transport';
export type { VouchOptions } from './transport';
export { verifyWebhook, WebhookVerificationError, DEFAULT_TOLERANCE_SECONDS } from './webhooks';
export type { VerifyOptions, WebhookHeaders } from './webhooks';
export type * from './types';
