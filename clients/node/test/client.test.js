'use strict';
// The Node.js client against a live vouchd.
const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { randomUUID } = require('node:crypto');
const zlib = require('node:zlib');
const { Vouch, VouchError, verifyWebhook, WebhookVerificationError } = require('..');
const { BASE_URL, MODULE, admin, freshAccount, startReceiver, startDroppingServer, collect } = require('./support');

const rejectsWith = async (promise, status, code) => {
  const error = await promise.then(
    () => assert.fail(`expected ${status} ${code}`),
    (e) => e,
  );
  assert.ok(error instanceof VouchError, String(error));
  assert.equal(error.status, status, error.message);
  assert.equal(error.code, code);
  return error;
};

const only = (headers, ...prefixes) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => prefixes.some((p) => name.startsWith(p))));

describe('the full flow', () => {
  it('project → generate → run → results, with verified webhooks', async () => {
    const sent = [];
    const v = await freshAccount({
      fetch: (url, init) => {
        sent.push([init.method, new URL(url).pathname, init.headers.prefer]);
        return fetch(url, init);
      },
    });
    const receiver = await startReceiver();
    try {
      const hook = await v.webhooks.create({ url: receiver.url, events: ['test.*', 'project.*'], description: 'node' });
      assert.match(hook.secret, /^whsec_/);
      assert.equal((await v.webhooks.get(hook.id)).secret, undefined);

      const project = await v.projects.create({
        name: 'shop',
        repository: 'https://git.example/shop.git',
        config: { framework: 'jest' },
      });
      assert.match(project.id, /^prj_/);
      assert.equal((await v.projects.get(project.id)).name, 'shop');
      const updated = await v.projects.update(project.id, { config: { coverage: { threshold: 50 } } });
      assert.equal(updated.config.coverage.threshold, 50);

      const test = await v.tests.generate({ projectId: project.id, files: [{ path: 'src/math.js', content: MODULE }] });
      assert.equal(test.status, 'pending');
      assert.ok(test.files.some((f) => f.path.endsWith('.test.js')));
      assert.ok(test.summary.testsKept > 0);
      assert.equal((await v.tests.get(test.testId)).testId, test.testId);
      assert.deepEqual(
        (await collect(v.tests.iterate({ projectId: project.id }))).map((t) => t.testId),
        [test.testId],
      );

      const run = await v.tests.run({ testId: test.testId });
      assert.equal(run.status, 'running');
      assert.equal(run.results, null);
      const early = await v.tests.waitForResults(run.runId, { timeoutMs: 100 }).catch((e) => e);
      if (early instanceof VouchError) assert.equal(early.code, 'wait_timeout');
      else assert.equal(early.status, 'completed'); // only when the run had already ended
      // One long poll (Prefer: wait=25) instead of a polling loop.
      sent.length = 0;
      const done = await v.tests.waitForResults(run.runId, { timeoutMs: 120_000 });
      assert.deepEqual(sent[0], ['GET', `/v1/tests/results/${run.runId}`, 'wait=25']);
      assert.ok(sent.length <= 2, JSON.stringify(sent));
      assert.equal(done.status, 'completed');
      assert.equal(done.outcome, 'success', JSON.stringify(done));
      assert.ok(done.results.passed > 0);
      assert.equal(done.results.failed, 0);
      assert.ok(done.results.coverage.lines > 0);
      assert.equal((await v.tests.get(test.testId)).status, 'passed');

      const report = await v.tests.coverage(run.runId);
      assert.equal(report.runId, run.runId);
      assert.match(report.lcov, /^SF:.*src\/math\.js$/m);
      assert.ok(Object.keys(report.istanbul).some((name) => name.endsWith('math.js')));
      assert.equal(await v.tests.coverageLcov(run.runId), report.lcov);
      assert.match((await v.tests.coverageHtml(run.runId)).toString('utf8'), /<html/i);

      const completed = await receiver.waitFor((e) => e.type === 'test.completed');
      const event = verifyWebhook(hook.secret, completed.headers, completed.body);
      assert.equal(event.data.testId, test.testId);
      assert.equal(event.data.results.passed, done.results.passed);
      const created = await receiver.waitFor((e) => e.type === 'project.created');
      assert.equal(verifyWebhook(hook.secret, created.headers, created.body).data.id, project.id);
      // rawHeaders as pairs work too
      const pairs = [];
      for (let i = 0; i < created.rawHeaders.length; i += 2)
        pairs.push([created.rawHeaders[i], created.rawHeaders[i + 1]]);
      assert.equal(verifyWebhook(hook.secret, pairs, created.body).type, 'project.created');

      // The attempt is logged just after the receiver answered: poll the log for it.
      let deliveries = [];
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
        deliveries = await collect(v.webhooks.iterateDeliveries(hook.id, { limit: 1 }));
        if (deliveries.some((d) => d.event === 'test.completed')) break;
      }
      assert.ok(deliveries.some((d) => d.event === 'test.completed'));
      assert.ok(deliveries.length >= 4);
      assert.ok(deliveries.every((d) => d.status === 200 && d.success));
      assert.equal((await v.webhooks.redeliver(hook.id, deliveries[0].id)).status, 'queued');

      const types = (await collect(v.events.iterate({ limit: 2 }))).map((e) => e.type);
      assert.ok(types.includes('project.created') && types.includes('test.completed'), types.join());
      assert.deepEqual(
        (await collect(v.events.iterate({ type: 'test.started' }))).map((e) => e.type),
        ['test.started'],
      );
    } finally {
      await receiver.close();
    }
  });
});

describe('verifyWebhook', () => {
  let v, receiver, hook, project, delivery;
  before(async () => {
    v = await freshAccount();
    receiver = await startReceiver();
    hook = await v.webhooks.create({ url: receiver.url, events: ['project.created', 'project.updated'] });
    project = await v.projects.create({ name: 'hooked' });
    delivery = await receiver.waitFor((e) => e.type === 'project.created');
  });
  after(() => receiver.close());

  it('verifies each scheme alone, from a Buffer or the exact string', () => {
    for (const headers of [only(delivery.headers, 'x-service-'), only(delivery.headers, 'webhook-')]) {
      assert.equal(verifyWebhook(hook.secret, headers, delivery.body).type, 'project.created');
      assert.equal(
        verifyWebhook(hook.secret, new Headers(headers), delivery.body.toString('utf8')).type,
        'project.created',
      );
    }
  });

  it('rejects a tampered body with each scheme', () => {
    const tampered = Buffer.from(delivery.body.toString('utf8').replace('hooked', 'hacked'));
    assert.notDeepEqual(tampered, delivery.body);
    for (const headers of [
      delivery.headers,
      only(delivery.headers, 'x-service-'),
      only(delivery.headers, 'webhook-'),
    ]) {
      assert.throws(() => verifyWebhook(hook.secret, headers, tampered), WebhookVerificationError);
    }
  });

  it('rejects another secret', async () => {
    const other = (await v.webhooks.create({ url: receiver.url, events: ['project.deleted'] })).secret;
    for (const headers of [only(delivery.headers, 'x-service-'), only(delivery.headers, 'webhook-')]) {
      assert.throws(() => verifyWebhook(other, headers, delivery.body), WebhookVerificationError);
    }
  });

  it('rejects a timestamp outside the tolerance', () => {
    const sent = Number(delivery.headers['webhook-timestamp']);
    assert.equal(
      verifyWebhook(hook.secret, delivery.headers, delivery.body, { now: sent + 299 }).type,
      'project.created',
    );
    for (const headers of [only(delivery.headers, 'x-service-'), only(delivery.headers, 'webhook-')]) {
      assert.throws(() => verifyWebhook(hook.secret, headers, delivery.body, { now: sent + 301 }), /tolerance/);
      assert.throws(() => verifyWebhook(hook.secret, headers, delivery.body, { now: sent - 301 }), /tolerance/);
    }
    assert.equal(
      verifyWebhook(hook.secret, delivery.headers, delivery.body, { now: sent + 3000, toleranceSeconds: 3600 }).type,
      'project.created',
    );
  });

  it('rejects a delivery without signature headers', () => {
    assert.throws(
      () => verifyWebhook(hook.secret, { 'content-type': 'application/json' }, delivery.body),
      /no signature header/,
    );
  });

  it('accepts the old and the new secret during a rotation', async () => {
    const rotated = await v.webhooks.rotateSecret(hook.id);
    assert.notEqual(rotated.secret, hook.secret);
    await v.projects.update(project.id, { name: 'rotated' });
    const { headers, body } = await receiver.waitFor((e) => e.type === 'project.updated');
    assert.equal(headers['webhook-signature'].split(' ').length, 2);
    for (const secret of [rotated.secret, hook.secret, [hook.secret, rotated.secret]]) {
      assert.equal(verifyWebhook(secret, headers, body).type, 'project.updated');
    }
    const bare = { ...headers };
    delete bare['x-service-signature-previous'];
    verifyWebhook(rotated.secret, bare, body);
    assert.throws(() => verifyWebhook(hook.secret, only(bare, 'x-service-'), body), WebhookVerificationError);
  });
});

/** A .tar.gz of `files` under one top folder (ustar headers, as `npm pack` writes them). */
function tarGz(files) {
  const blocks = [];
  for (const { path, content } of files) {
    const data = Buffer.from(content);
    const header = Buffer.alloc(512);
    const field = (text, offset, length) => header.write(text.slice(0, length), offset, 'ascii');
    field(path, 0, 100);
    field('0000644\0', 100, 8);
    field('0000000\0', 108, 8);
    field('0000000\0', 116, 8);
    field(data.length.toString(8).padStart(11, '0') + '\0', 124, 12);
    field('00000000000\0', 136, 12);
    field('        ', 148, 8);
    field('0', 156, 1);
    field('ustar\0' + '00', 257, 8);
    const sum = header.reduce((a, b) => a + b, 0);
    field(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(blocks));
}

describe('import', () => {
  it('stores snapshots from files and from a .tar.gz', async () => {
    const v = await freshAccount();
    const project = await v.projects.create({ name: 'imported' });
    const files = [
      { path: 'src/math.js', content: MODULE },
      { path: 'package.json', content: '{}' },
    ];
    const snapshot = await v.projects.importSnapshot(project.id, { files });
    assert.deepEqual([snapshot.projectId, snapshot.source, snapshot.files], [project.id, 'upload', 2]);
    const archived = await v.projects.importSnapshot(
      project.id,
      tarGz(files.map((f) => ({ ...f, path: `package/${f.path}` }))),
    );
    assert.equal(archived.source, 'archive');
    assert.equal(archived.snapshotId, snapshot.snapshotId); // the top folder is removed: the same files
    const error = await rejectsWith(
      v.projects.importSnapshot(project.id, { git: { ref: 'main' } }),
      400,
      'invalid_request',
    );
    assert.equal(error.errors[0].field, 'git'); // the project has no repository
    await rejectsWith(v.projects.importSnapshot('prj_missing', { files }), 404, 'not_found');
    const types = (await collect(v.events.iterate({ projectId: project.id }))).map((e) => e.type);
    assert.equal(types.filter((t) => t === 'project.imported').length, 2);
  });
});

describe('pagination', () => {
  it('iterates every page in order', async () => {
    const v = await freshAccount();
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await v.projects.create({ name: `p${i}` })).id);
    const first = await v.projects.list({ limit: 2 });
    assert.deepEqual(
      first.projects.map((p) => p.id),
      created.slice(0, 2),
    );
    assert.equal(first.hasMore, true);
    const last = await v.projects.list({ limit: 2, startingAfter: created[3] });
    assert.deepEqual(
      last.projects.map((p) => p.id),
      created.slice(4),
    );
    assert.equal(last.hasMore, false);
    assert.deepEqual(
      (await collect(v.projects.iterate({ limit: 2 }))).map((p) => p.id),
      created,
    );
    assert.deepEqual(
      (await collect(v.projects.iterate({ limit: 100 }))).map((p) => p.id),
      created,
    );
    await v.projects.delete(created[0]);
    assert.deepEqual(
      (await collect(v.projects.iterate({ limit: 3 }))).map((p) => p.id),
      created.slice(1),
    );
  });

  it('pages webhooks and events', async () => {
    const v = await freshAccount();
    const hooks = [];
    for (let i = 0; i < 3; i++)
      hooks.push((await v.webhooks.create({ url: `https://hooks.example.com/${i}`, events: ['*'] })).id);
    assert.deepEqual(
      (await collect(v.webhooks.iterate({ limit: 1 }))).map((h) => h.id),
      hooks,
    );
    await v.webhooks.update(hooks[0], { active: false, description: 'off' });
    assert.equal((await v.webhooks.get(hooks[0])).active, false);
    await v.webhooks.delete(hooks[2]);
    assert.deepEqual(
      (await collect(v.webhooks.iterate({ limit: 1 }))).map((h) => h.id),
      hooks.slice(0, 2),
    );
    for (let i = 0; i < 3; i++) await v.projects.create({ name: `e${i}` });
    assert.deepEqual(
      (await collect(v.events.iterate({ limit: 2 }))).map((e) => e.type),
      Array(3).fill('project.created'),
    );
  });
});

describe('errors', () => {
  it('401 carries the problem fields', async () => {
    const error = await rejectsWith(
      new Vouch({ baseUrl: BASE_URL, apiKey: 'vk_' + '0'.repeat(64) }).projects.list(),
      401,
      'unauthenticated',
    );
    assert.ok(error.detail);
    assert.ok(error.requestId);
  });

  it('403 without the scope', async () => {
    const v = await freshAccount({ scopes: ['projects:read'] });
    await rejectsWith(v.projects.create({ name: 'nope' }), 403, 'forbidden');
  });

  it('404 for an unknown resource', async () => {
    const v = await freshAccount();
    for (const call of [
      () => v.projects.get('prj_missing'),
      () => v.tests.get('tst_missing'),
      () => v.tests.results('run_missing'),
      () => v.tests.waitForResults('run_missing'),
      () => v.webhooks.deliveries('whk_missing'),
    ]) {
      const error = await rejectsWith(call(), 404, 'not_found');
      assert.ok(error.requestId);
    }
  });

  it('400 lists the fields', async () => {
    const v = await freshAccount();
    const error = await rejectsWith(v.tests.generate({ projectId: '', files: [] }), 400, 'invalid_request');
    assert.ok(
      error.errors.some((e) => e.field === 'files'),
      JSON.stringify(error.errors),
    );
    const events = await rejectsWith(
      v.webhooks.create({ url: 'https://hooks.example.com/x', events: ['nope.*'] }),
      400,
      'invalid_request',
    );
    assert.deepEqual(
      events.errors.map((e) => e.field),
      ['events[0]'],
    );
  });

  it('429 honours Retry-After', async () => {
    const waits = [];
    const v = await freshAccount({ plan: 'free', maxRetries: 1, sleep: async (ms) => void waits.push(ms) });
    let error;
    for (let i = 0; i < 200 && !error; i++)
      error = await v.projects.list({ limit: 1 }).then(
        () => undefined,
        (e) => e,
      );
    assert.ok(error instanceof VouchError);
    assert.equal(error.status, 429);
    assert.equal(error.code, 'rate_limited');
    assert.ok(error.retryAfter >= 1);
    // The client waited what the server asked before its one retry (recorded, not slept).
    assert.ok(waits.length >= 1);
    const last = waits[waits.length - 1];
    assert.ok(
      last >= error.retryAfter * 1000 && last <= (error.retryAfter + 1) * 1000,
      `${waits} vs ${error.retryAfter}`,
    );
  });

  it('429 asking too long a wait is raised at once', async () => {
    const waits = [];
    const v = await freshAccount({
      plan: 'free',
      maxRetries: 3,
      maxRetryAfterMs: 500,
      sleep: async (ms) => void waits.push(ms),
    });
    let error;
    for (let i = 0; i < 200 && !error; i++)
      error = await v.projects.list({ limit: 1 }).then(
        () => undefined,
        (e) => e,
      );
    assert.equal(error.status, 429);
    assert.deepEqual(waits, []);
  });
});

describe('retries', () => {
  it('retries network errors of a POST with one Idempotency-Key, and of a GET', async () => {
    const dropping = await startDroppingServer();
    try {
      const waits = [];
      const v = new Vouch({
        baseUrl: dropping.url,
        apiKey: 'vk_x',
        maxRetries: 2,
        sleep: async (ms) => void waits.push(ms),
      });
      await rejectsWith(v.projects.create({ name: 'x' }), 0, 'network_error');
      const keys = dropping.headerValues('idempotency-key');
      assert.equal(keys.length, 3);
      assert.equal(new Set(keys).size, 1);
      assert.match(keys[0], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(waits.length, 2);
      assert.ok(waits[0] < waits[1] * 2);
      await rejectsWith(v.projects.get('prj_x'), 0, 'network_error');
      assert.equal(dropping.heads.length, 6);
    } finally {
      await dropping.close();
    }
  });

  it('sends a given Idempotency-Key', async () => {
    const dropping = await startDroppingServer();
    try {
      const v = new Vouch({ baseUrl: dropping.url, apiKey: 'vk_x', maxRetries: 0 });
      await rejectsWith(v.tests.run({ testId: 'tst_x' }, { idempotencyKey: 'my-key-1' }), 0, 'network_error');
      assert.deepEqual(dropping.headerValues('idempotency-key'), ['my-key-1']);
    } finally {
      await dropping.close();
    }
  });

  it('a refused connection is a network error', async () => {
    const probe = await startDroppingServer();
    await probe.close();
    const started = Date.now();
    await rejectsWith(new Vouch({ baseUrl: probe.url, maxRetries: 1, backoffBaseMs: 10 }).health(), 0, 'network_error');
    assert.ok(Date.now() - started < 5000);
  });
});

describe('Idempotency-Key', () => {
  // Against a vouchd that supports it: a POST repeated with its key acts once.
  let v, probe, supported;
  before(async () => {
    v = await freshAccount({ maxRetries: 10 });
    const key = `node-probe-${randomUUID()}`;
    probe = await v.projects.create({ name: 'probe' }, { idempotencyKey: key });
    supported = (await v.projects.create({ name: 'probe' }, { idempotencyKey: key })).id === probe.id;
  });

  it('a repeated POST acts once, another body with the key is refused', async (t) => {
    if (!supported) return t.skip('this vouchd does not support Idempotency-Key yet');
    assert.deepEqual(
      (await collect(v.projects.iterate())).map((p) => p.id),
      [probe.id],
    );
    await v.projects.create({ name: 'probe' }); // a generated key: a new project
    assert.equal((await collect(v.projects.iterate())).length, 2);
    const key = `node-${randomUUID()}`;
    await v.projects.create({ name: 'a' }, { idempotencyKey: key });
    await rejectsWith(v.projects.create({ name: 'b' }, { idempotencyKey: key }), 422, 'idempotency_key_reused');
  });

  it('a retry while the first is in flight gets the first answer', async (t) => {
    if (!supported) return t.skip('this vouchd does not support Idempotency-Key yet');
    const key = `node-${randomUUID()}`;
    const body = { projectId: probe.id, files: [{ path: 'm.js', content: MODULE }] };
    const [a, b] = await Promise.all([
      v.tests.generate(body, { idempotencyKey: key }),
      v.tests.generate(body, { idempotencyKey: key }),
    ]);
    assert.equal(a.testId, b.testId);
    assert.deepEqual(
      (await collect(v.tests.iterate({ projectId: probe.id }))).map((x) => x.testId),
      [a.testId],
    );
  });
});

describe('meta', () => {
  it('health, readiness, metrics', async () => {
    const v = admin();
    assert.equal((await v.health()).status, 'ok');
    assert.equal((await v.ready()).status, 'ready');
    assert.match(await v.metrics(), /vouch_http_responses_total/);
  });
});
