// Requests and answers of the API: named aliases of the types openapi-typescript generates from
// the OpenAPI document into ./schema.ts (never edit that file: `npm run generate`).
import type { components, operations } from './schema';

type S = components['schemas'];
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

export type { components, operations, paths } from './schema';

export type Project = S['Project'];
export type ProjectConfig = S['ProjectConfig'];
export type CreateProjectRequest = S['ProjectCreate'];
export type UpdateProjectRequest = S['ProjectUpdate'];
export type ProjectList = S['ProjectList'];
export type ImportRequest = S['ImportRequest'];
export type ImportedSnapshot = S['ImportedSnapshot'];

export type SourceFile = S['File'];
export type GenerateTestsRequest = S['GenerateRequest'];
export type GeneratedTest = S['GeneratedTest'];
export type GenerationSummary = S['GenerationSummary'];
export type GenerationProgress = S['GenerationProgress'];
export type GenerationError = S['GenerationError'];
export type TestList = S['TestList'];

export type RunTestsRequest = S['RunRequest'];
export type Environment = S['Environment'];
export type Run = S['Run'];
export type RunResults = S['Results'];
export type RunError = S['RunError'];
export type CoverageReport = S['CoverageReport'];

export type CreateWebhookRequest = S['WebhookCreate'];
export type UpdateWebhookRequest = S['WebhookUpdate'];
export type Webhook = S['Webhook'];
export type WebhookWithSecret = S['WebhookWithSecret'];
export type WebhookList = S['WebhookList'];
export type Delivery = S['Delivery'];
export type DeliveryList = S['DeliveryList'];
export type Redelivery = S['RedeliveryQueued'];

/** A public event, as `GET /v1/events` lists it and as a webhook delivers it (a union on `type`). */
export type WebhookEvent = S['Event'];
export type EventType = WebhookEvent['type'];
export type EventPattern = S['EventPattern'];
export type EventList = S['EventList'];

export type CreateKeyRequest = S['KeyCreate'];
export type ApiKey = S['IssuedKey'];

export type Health = S['Health'];
export type Readiness = S['Readiness'];
export type Problem = S['Problem'];

export type PageParams = Pick<Query<'listProjects'>, 'limit' | 'startingAfter'>;
export type ListTestsParams = Query<'listTests'>;
export type ListEventsParams = Query<'listEvents'>;
export type ListDeliveriesParams = Query<'listDeliveries'>;
