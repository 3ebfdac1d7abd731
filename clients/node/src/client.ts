import { VouchError } from './errors';
import { Transport, type RequestOptions, type VouchOptions } from './transport';
import type * as T from './types';

/** operationId → method and path template; every method of the client goes through one. */
export const OPERATIONS = {
  createProject: ['POST', '/v1/projects'],
  listProjects: ['GET', '/v1/projects'],
  getProject: ['GET', '/v1/projects/{projectId}'],
  updateProject: ['PUT', '/v1/projects/{projectId}'],
  deleteProject: ['DELETE', '/v1/projects/{projectId}'],
  importProject: ['POST', '/v1/projects/{projectId}/import'],
  generateTests: ['POST', '/v1/tests/generate'],
  listTests: ['GET', '/v1/tests'],
  getTest: ['GET', '/v1/tests/{testId}'],
  runTests: ['POST', '/v1/tests/run'],
  getRun: ['GET', '/v1/tests/results/{runId}'],
  getCoverageReport: ['GET', '/v1/tests/results/{runId}/coverage'],
  getCoverageLcov: ['GET', '/v1/tests/results/{runId}/coverage/lcov.info'],
  getCoverageHtml: ['GET', '/v1/tests/results/{runId}/coverage/html/{path}'],
  getJunitReport: ['GET', '/v1/tests/results/{runId}/junit.xml'],
  createWebhook: ['POST', '/v1/webhooks'],
  listWebhooks: ['GET', '/v1/webhooks'],
  getWebhook: ['GET', '/v1/webhooks/{webhookId}'],
  updateWebhook: ['PUT', '/v1/webhooks/{webhookId}'],
  deleteWebhook: ['DELETE', '/v1/webhooks/{webhookId}'],
  rotateWebhookSecret: ['POST', '/v1/webhooks/{webhookId}/rotate-secret'],
  listDeliveries: ['GET', '/v1/webhooks/{webhookId}/deliveries'],
  redeliver: ['POST', '/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver'],
  listEvents: ['GET', '/v1/events'],
  issueKey: ['POST', '/v1/keys'],
  revokeKey: ['DELETE', '/v1/keys/{keyId}'],
  health: ['GET', '/healthz'],
  readiness: ['GET', '/readyz'],
  metrics: ['GET', '/metrics'],
  getOpenApi: ['GET', '/v1/openapi.json'],
} as const satisfies Record<string, readonly [string, string]>;

export type OperationId = keyof typeof OPERATIONS;

/** Longest `Prefer: wait` the server grants, in seconds. */
export const MAX_POLL_WAIT_SECONDS = 25;

/** Options of a POST: the `Idempotency-Key` to send instead of a generated one. */
export interface PostOptions {
  idempotencyKey?: string;
}

class Resource {
  constructor(protected readonly transport: Transport) {}

  protected call<R>(
    operation: OperationId,
    params: Record<string, string> = {},
    options: RequestOptions = {},
  ): Promise<R> {
    const [method, template] = OPERATIONS[operation];
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name];
      if (!value) throw new TypeError(`${name} must not be empty`);
      // A file path keeps its slashes; every other parameter is one segment.
      return name === 'path' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
    });
    return this.transport.request<R>(method, path, options);
  }

  /** Every item of a list endpoint, page after page, `startingAfter` = the last item's id. */
  protected async *pages<Item>(
    operation: OperationId,
    field: string,
    params: Record<string, string>,
    query: Record<string, string | number | undefined>,
    idOf: (item: Item) => string,
  ): AsyncGenerator<Item, void, undefined> {
    const next = { ...query };
    for (;;) {
      const page = await this.call<Record<string, unknown>>(operation, params, { query: next });
      const items = page[field] as Item[];
      yield* items;
      if (!page.hasMore || items.length === 0) return;
      next.startingAfter = idOf(items[items.length - 1]);
    }
  }
}

const byId = (item: { id: string }) => item.id;

/** The milliseconds left until `deadline`; past it, throws VouchError `wait_timeout` (status 0). */
function timeLeft(deadline: number, detail: string): number {
  const left = deadline - Date.now();
  if (left <= 0) throw new VouchError({ status: 0, code: 'wait_timeout', detail });
  return left;
}

/**
 * A resource created, read, updated, deleted and listed the same way: projects and webhooks.
 * `noun` names its operations (`createProject`, `listProjects`, …), `idParam` its path parameter
 * and `field` the list answer's array.
 */
abstract class Crud<
  Noun extends 'Project' | 'Webhook',
  Item extends { id: string },
  Created,
  CreateBody,
  UpdateBody,
  List,
> extends Resource {
  constructor(
    transport: Transport,
    private readonly noun: Noun,
    private readonly idParam: string,
    private readonly field: string,
  ) {
    super(transport);
  }

  create(body: CreateBody, options: PostOptions = {}): Promise<Created> {
    return this.call(`create${this.noun}`, {}, { body, idempotencyKey: options.idempotencyKey });
  }
  get(id: string): Promise<Item> {
    return this.call(`get${this.noun}`, { [this.idParam]: id });
  }
  update(id: string, body: UpdateBody): Promise<Item> {
    return this.call(`update${this.noun}`, { [this.idParam]: id }, { body });
  }
  delete(id: string): Promise<void> {
    return this.call(`delete${this.noun}`, { [this.idParam]: id });
  }
  /** One page, oldest first. */
  list(params: T.PageParams = {}): Promise<List> {
    return this.call(`list${this.noun}s`, {}, { query: { ...params } });
  }
  /** Every item: `for await (const p of v.projects.iterate({ limit: 100 }))`. */
  iterate(params: T.PageParams = {}): AsyncGenerator<Item, void, undefined> {
    return this.pages<Item>(`list${this.noun}s`, this.field, {}, { ...params }, byId);
  }
}

export class Projects extends Crud<
  'Project',
  T.Project,
  T.Project,
  T.CreateProjectRequest,
  T.UpdateProjectRequest,
  T.ProjectList
> {
  constructor(transport: Transport) {
    super(transport, 'Project', 'projectId', 'projects');
  }
  /**
   * Stores a snapshot of the project's sources (`project.imported`) from `{ files }`,
   * `{ git: { ref } }` (the project's repository at a branch or tag), or the bytes of a `.tar.gz`.
   */
  importSnapshot(
    projectId: string,
    source: T.ImportRequest | Uint8Array,
    options: PostOptions = {},
  ): Promise<T.ImportedSnapshot> {
    const body = source instanceof Uint8Array ? { rawBody: source, contentType: 'application/gzip' } : { body: source };
    return this.call('importProject', { projectId }, { ...body, idempotencyKey: options.idempotencyKey });
  }
}

/**
 * Options of `tests.generate`. Without `async` or `wait`, one request answers when the tests
 * exist. `async`: `Prefer: respond-async`, answered at once with the test `generating`. `wait`:
 * the same, then `waitForGeneration` (progress through `onProgress`) until the tests exist.
 */
export interface GenerateOptions extends PostOptions, WaitForGenerationOptions {
  /** Of the one request (the synchronous form). */
  timeoutMs?: number;
  async?: boolean;
  wait?: boolean;
}

export interface WaitForGenerationOptions {
  /** Called with each new progress while the test is `generating`. */
  onProgress?: (progress: T.GenerationProgress, test: T.GeneratedTest) => void;
  /** Between two reads of the test; default 1 000 ms. */
  pollIntervalMs?: number;
  /** Default 600 000 ms; then rejects with VouchError `wait_timeout` (status 0). */
  waitTimeoutMs?: number;
}

export class Tests extends Resource {
  /**
   * Generates Jest tests for `files` (or the project's snapshot). See GenerateOptions for the
   * synchronous, `async` and `wait` forms. With `wait`, a generation that fails rejects with
   * VouchError (status 0, the generation's `error.code` and detail).
   */
  generate(body: T.GenerateTestsRequest, options: GenerateOptions = {}): Promise<T.GeneratedTest> {
    const { async, wait, onProgress, pollIntervalMs, waitTimeoutMs, ...request } = options;
    if (!async && !wait) return this.call('generateTests', {}, { body, ...request });
    const accepted = this.call<T.GeneratedTest>(
      'generateTests',
      {},
      {
        body,
        idempotencyKey: request.idempotencyKey,
        headers: { prefer: 'respond-async' },
      },
    );
    if (!wait) return accepted;
    return accepted.then((test) => this.waitForGeneration(test.testId, { onProgress, pollIntervalMs, waitTimeoutMs }));
  }
  /**
   * Reads the test until its generation has ended: resolves with it (`pending`, with its files),
   * or rejects with VouchError (status 0, code and detail of its `error`) when it failed.
   */
  async waitForGeneration(testId: string, options: WaitForGenerationOptions = {}): Promise<T.GeneratedTest> {
    const interval = options.pollIntervalMs ?? 1_000;
    const timeoutMs = options.waitTimeoutMs ?? 600_000;
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      const test = await this.get(testId);
      if (test.status !== 'generating') {
        if (test.error)
          throw new VouchError({ status: 0, code: test.error.code, detail: test.error.detail, body: test });
        return test;
      }
      if (test.progress && options.onProgress) {
        const seen = JSON.stringify(test.progress);
        if (seen !== last) options.onProgress(test.progress, test);
        last = seen;
      }
      const left = timeLeft(deadline, `test ${testId} was still generating after ${timeoutMs} ms`);
      await this.transport.sleep(Math.min(interval, left));
    }
  }
  get(testId: string): Promise<T.GeneratedTest> {
    return this.call('getTest', { testId });
  }
  list(params: T.ListTestsParams): Promise<T.TestList> {
    return this.call('listTests', {}, { query: { ...params } });
  }
  iterate(params: T.ListTestsParams): AsyncGenerator<T.GeneratedTest, void, undefined> {
    return this.pages('listTests', 'tests', {}, { ...params }, (t: T.GeneratedTest) => t.testId);
  }
  /** Starts a run; answers at once with `status: "running"`. */
  run(body: T.RunTestsRequest, options: PostOptions = {}): Promise<T.Run> {
    return this.call('runTests', {}, { body, idempotencyKey: options.idempotencyKey });
  }
  /** The run now, or — with `waitSeconds` (at most 25) — when it ends if that comes first. */
  results(runId: string, options: { waitSeconds?: number } = {}): Promise<T.Run> {
    const wait = Math.floor(options.waitSeconds ?? 0);
    if (wait <= 0) return this.call('getRun', { runId });
    return this.call(
      'getRun',
      { runId },
      {
        headers: { prefer: `wait=${wait}` },
        timeoutMs: this.transport.timeoutMs + wait * 1000,
      },
    );
  }
  /** The completed run's coverage report: `{runId, created, lcov, istanbul, lcovUrl, htmlUrl}`. */
  coverage(runId: string): Promise<T.CoverageReport> {
    return this.call('getCoverageReport', { runId });
  }
  /** The run's `lcov.info`. */
  coverageLcov(runId: string): Promise<string> {
    return this.call('getCoverageLcov', { runId }, { text: true });
  }
  /** The run's JUnit XML report (a testsuite per test file, a testcase per test). */
  junitXml(runId: string): Promise<string> {
    return this.call('getJunitReport', { runId }, { text: true });
  }
  /** One file of the run's HTML coverage report (`index.html`, its pages, CSS, images). */
  coverageHtml(runId: string, path = 'index.html'): Promise<Buffer> {
    return this.call('getCoverageHtml', { runId, path }, { binary: true });
  }
  /**
   * Resolves with the run once `completed`, long-polling with `Prefer: wait` (one request per
   * `pollWaitSeconds` while it runs). Failed connections, 5xx and answers that were not held are
   * retried with backoff until `timeoutMs` (default 300 000); then rejects with VouchError
   * `wait_timeout` (status 0).
   */
  async waitForResults(runId: string, options: { timeoutMs?: number; pollWaitSeconds?: number } = {}): Promise<T.Run> {
    const timeoutMs = options.timeoutMs ?? 300_000;
    const pollWait = Math.min(options.pollWaitSeconds ?? MAX_POLL_WAIT_SECONDS, MAX_POLL_WAIT_SECONDS);
    const deadline = Date.now() + timeoutMs;
    let attempt = 0;
    for (;;) {
      const wait = Math.max(0, Math.min(pollWait, Math.floor((deadline - Date.now()) / 1000)));
      const started = Date.now();
      let run: T.Run | undefined;
      try {
        run = await this.results(runId, { waitSeconds: wait });
      } catch (error) {
        if (!(error instanceof VouchError) || (error.status !== 0 && error.status < 500)) throw error;
      }
      if (run?.status === 'completed') return run;
      const left = timeLeft(deadline, `run ${runId} did not complete within ${timeoutMs} ms`);
      if (run === undefined || Date.now() - started < wait * 900) {
        // No answer, or the request was not held: back off before asking again.
        await this.transport.sleep(Math.min(this.transport.backoff(attempt++), left));
      } else {
        attempt = 0;
      }
    }
  }
}

/** Creation and rotation answer with the `secret` (only there). */
export class Webhooks extends Crud<
  'Webhook',
  T.Webhook,
  T.WebhookWithSecret,
  T.CreateWebhookRequest,
  T.UpdateWebhookRequest,
  T.WebhookList
> {
  constructor(transport: Transport) {
    super(transport, 'Webhook', 'webhookId', 'webhooks');
  }
  rotateSecret(webhookId: string): Promise<T.WebhookWithSecret> {
    return this.call('rotateWebhookSecret', { webhookId });
  }
  /** One page of the delivery log, newest first. */
  deliveries(webhookId: string, params: T.ListDeliveriesParams = {}): Promise<T.DeliveryList> {
    return this.call('listDeliveries', { webhookId }, { query: { ...params } });
  }
  iterateDeliveries(
    webhookId: string,
    params: T.ListDeliveriesParams = {},
  ): AsyncGenerator<T.Delivery, void, undefined> {
    return this.pages<T.Delivery>('listDeliveries', 'deliveries', { webhookId }, { ...params }, byId);
  }
  redeliver(webhookId: string, deliveryId: string): Promise<T.Redelivery> {
    return this.call('redeliver', { webhookId, deliveryId });
  }
}

export class Events extends Resource {
  /** One page of the account's public events in log order; `type` (a type or pattern) and `projectId` filter. */
  list(params: T.ListEventsParams = {}): Promise<T.EventList> {
    return this.call('listEvents', {}, { query: { ...params } });
  }
  iterate(params: T.ListEventsParams = {}): AsyncGenerator<T.WebhookEvent, void, undefined> {
    return this.pages<T.WebhookEvent>('listEvents', 'events', {}, { ...params }, byId);
  }
}

/** API keys: needs a key with the `admin` scope. */
export class Keys extends Resource {
  create(body: T.CreateKeyRequest, options: PostOptions = {}): Promise<T.ApiKey> {
    return this.call('issueKey', {}, { body, idempotencyKey: options.idempotencyKey });
  }
  revoke(keyId: string): Promise<void> {
    return this.call('revokeKey', { keyId });
  }
}

class Meta extends Resource {
  health(): Promise<T.Health> {
    return this.call('health');
  }
  ready(): Promise<T.Readiness> {
    return this.call('readiness');
  }
  metrics(): Promise<string> {
    return this.call('metrics', {}, { text: true });
  }
  openapi(): Promise<Record<string, unknown>> {
    return this.call('getOpenApi');
  }
}

/** `new Vouch({ baseUrl, apiKey })`: the API's resources as properties. */
export class Vouch {
  readonly projects: Projects;
  readonly tests: Tests;
  readonly webhooks: Webhooks;
  readonly events: Events;
  readonly keys: Keys;
  private readonly meta: Meta;

  constructor(options: VouchOptions) {
    const transport = new Transport(options);
    this.projects = new Projects(transport);
    this.tests = new Tests(transport);
    this.webhooks = new Webhooks(transport);
    this.events = new Events(transport);
    this.keys = new Keys(transport);
    this.meta = new Meta(transport);
  }

  health() {
    return this.meta.health();
  }
  ready() {
    return this.meta.ready();
  }
  metrics() {
    return this.meta.metrics();
  }
  openapi() {
    return this.meta.openapi();
  }
}
