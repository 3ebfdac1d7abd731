'use strict';
// The client against the OpenAPI document the server serves (else the checkout's
// docs/openapi.json): every documented operation is one entry of OPERATIONS, with its method and
// path, and no other. Fields and parameters are checked at compile time: src/types.ts aliases
// the types generated from the document (npm test generates src/schema.ts first).
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { OPERATIONS, Vouch, VouchError } = require('..');
const { admin } = require('./support');

async function loadDocument() {
  try {
    return await admin().openapi();
  } catch (error) {
    if (!(error instanceof VouchError) || error.status !== 404) throw error;
  }
  for (const file of [process.env.VOUCH_OPENAPI, path.resolve(__dirname, '..', '..', '..', 'docs', 'openapi.json')]) {
    if (file && fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  }
  return undefined;
}

const normalise = (p) => p.replace(/\{[^}]+\}/g, '{}');

describe('the OpenAPI document', async () => {
  const doc = await loadDocument();
  it('lists exactly the operations of the client', () => {
    assert.ok(doc, 'no OpenAPI document served or in docs/');
    const documented = {};
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (operation && operation.operationId)
          documented[operation.operationId] = [method.toUpperCase(), normalise(p)];
      }
    }
    const ours = Object.fromEntries(Object.entries(OPERATIONS).map(([id, [m, p]]) => [id, [m, normalise(p)]]));
    assert.deepEqual(ours, documented);
  });

  it('has a method on the client for every operation', () => {
    const v = new Vouch({ baseUrl: 'http://127.0.0.1:1' });
    const methods = {
      createProject: v.projects.create,
      listProjects: v.projects.list,
      getProject: v.projects.get,
      updateProject: v.projects.update,
      deleteProject: v.projects.delete,
      importProject: v.projects.importSnapshot,
      generateTests: v.tests.generate,
      listTests: v.tests.list,
      getTest: v.tests.get,
      runTests: v.tests.run,
      getRun: v.tests.results,
      getCoverageReport: v.tests.coverage,
      getCoverageLcov: v.tests.coverageLcov,
      getCoverageHtml: v.tests.coverageHtml,
      getJunitReport: v.tests.junitXml,
      createWebhook: v.webhooks.create,
      listWebhooks: v.webhooks.list,
      getWebhook: v.webhooks.get,
      updateWebhook: v.webhooks.update,
      deleteWebhook: v.webhooks.delete,
      rotateWebhookSecret: v.webhooks.rotateSecret,
      listDeliveries: v.webhooks.deliveries,
      redeliver: v.webhooks.redeliver,
      listEvents: v.events.list,
      issueKey: v.keys.create,
      revokeKey: v.keys.revoke,
      health: v.health,
      readiness: v.ready,
      metrics: v.metrics,
      getOpenApi: v.openapi,
    };
    assert.deepEqual(Object.keys(methods).sort(), Object.keys(OPERATIONS).sort());
    for (const [id, method] of Object.entries(methods)) assert.equal(typeof method, 'function', id);
  });
});
