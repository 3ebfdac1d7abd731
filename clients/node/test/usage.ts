// Compiled (not run) by `npm test` against the shipped declarations (dist/*.d.ts): the README's
// flow type-checks, and misuse does not (each @ts-expect-error must see an error).
import { Vouch, VouchError, verifyWebhook, type Run, type WebhookEvent } from '..';

export async function flow(source: string, secret: string, headers: Record<string, string>, body: Buffer) {
  const v = new Vouch({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'vk_x' });
  const project = await v.projects.create({ name: 'shop', repository: 'https://git.example/shop.git' });
  const test = await v.tests.generate({ projectId: project.id, files: [{ path: 'src/math.js', content: source }] });
  const run = await v.tests.run({ testId: test.testId, environment: { nodeVersion: '20' } });
  const done: Run = await v.tests.waitForResults(run.runId, { timeoutMs: 300_000 });
  const passed: number | undefined = done.results?.passed;
  for await (const p of v.projects.iterate({ limit: 100 })) console.log(p.id, p.name, passed);
  const page = await v.events.list({ type: 'test.*', projectId: project.id });
  const first: WebhookEvent | undefined = page.events[0];
  if (first?.type === 'test.completed') console.log(first.data);
  const hook = await v.webhooks.create({ url: 'https://hooks.example.com', events: ['test.*'] });
  const secretOfHook: string = hook.secret;
  const deliveries = await v.webhooks.deliveries(hook.id, { limit: 10 });
  console.log(deliveries.deliveries[0]?.status, secretOfHook, verifyWebhook(secret, headers, body).type);
  try {
    await v.projects.get('prj_nope');
  } catch (e) {
    if (e instanceof VouchError) console.log(e.status, e.code, e.detail, e.errors[0]?.field, e.requestId);
  }
  // @ts-expect-error name is required
  await v.projects.create({ repository: 'x' });
  // @ts-expect-error not an event type or pattern
  await v.webhooks.create({ url: 'https://x', events: ['nope'] });
  // @ts-expect-error testId is required
  await v.tests.run({});
}
