// Requests and answers of the API, with its field names.

export interface Coverage {
  threshold: number;
}
export interface ProjectConfig {
  framework: string;
  coverage: Coverage;
}
export interface Project {
  id: string;
  name: string;
  repository: string;
  config: ProjectConfig;
  created: string;
  updated: string;
}
export interface CreateProjectRequest {
  name: string;
  repository?: string;
  config?: { framework?: string; coverage?: { threshold?: number } };
}
export interface UpdateProjectRequest {
  name?: string;
  config?: { framework?: string; coverage?: { threshold?: number } };
}

export interface SourceFile {
  path: string;
  content: string;
}
export interface Environment {
  nodeVersion?: string;
  dependencies?: Record<string, string>;
}
export interface GenerateTestsRequest {
  projectId: string;
  files: SourceFile[];
  config?: { framework?: string; coverage?: { threshold?: number } };
  environment?: Environment;
}
export interface GeneratedTest {
  testId: string;
  projectId: string;
  status: 'pending' | 'running' | 'passed' | 'failed';
  framework: string;
  threshold: number;
  files: SourceFile[];
  summary: Record<string, unknown>;
  lastRunId: string | null;
  created: string;
  updated: string;
}

export interface RunTestsRequest {
  testId: string;
  environment?: Environment;
}
export interface RunResults {
  total: number;
  passed: number;
  failed: number;
  coverage: { statements: number; branches: number; functions: number; lines: number };
}
export interface Run {
  runId: string;
  testId: string;
  projectId: string;
  status: 'running' | 'completed';
  results: RunResults | null;
  outcome: 'success' | 'failure' | 'error' | null;
  duration: number | null;
  error: { code: string; detail: string } | null;
  failures: string[];
  environment: Environment;
  created: string;
  completed: string | null;
}

export type EventType =
  | 'test.started'
  | 'test.completed'
  | 'test.failed'
  | 'test.coverage.updated'
  | 'project.created'
  | 'project.updated'
  | 'project.deleted'
  | 'project.imported';

export interface CreateWebhookRequest {
  url: string;
  events: string[];
  description?: string;
}
export interface UpdateWebhookRequest {
  url?: string;
  events?: string[];
  description?: string;
  active?: boolean;
}
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string;
  active: boolean;
  created: string;
  updated: string;
  disabledReason?: string;
  /** Only in the answers of create and rotate-secret. */
  secret?: string;
}
export interface Delivery {
  id: string;
  eventId: string;
  event: string;
  url: string;
  status: number;
  duration: number;
  created: string;
  attempt: number;
  success: boolean;
  manual: boolean;
  error: string | null;
  nextAttempt: string | null;
}
export interface Redelivery {
  webhookId: string;
  eventId: string;
  event: string;
  attempt: number;
  status: 'queued';
}

/** A public event, as `GET /v1/events` lists it and as a webhook delivers it. */
export interface WebhookEvent {
  id: string;
  type: EventType;
  created: string;
  data: Record<string, unknown>;
}

export interface CreateKeyRequest {
  account: string;
  scopes: string[];
  plan?: 'free' | 'pro' | 'enterprise';
  name?: string;
}
export interface ApiKey {
  id: string;
  key: string;
  account: string;
  plan: string;
  scopes: string[];
  name: string;
  created: string;
}

export interface PageParams {
  limit?: number;
  startingAfter?: string;
}
export interface ProjectList {
  projects: Project[];
  hasMore: boolean;
}
export interface TestList {
  tests: GeneratedTest[];
  hasMore: boolean;
}
export interface WebhookList {
  webhooks: Webhook[];
  hasMore: boolean;
}
export interface DeliveryList {
  deliveries: Delivery[];
  hasMore: boolean;
}
export interface EventList {
  events: WebhookEvent[];
  hasMore: boolean;
}
