'use strict';
// Checks the generated tests the way they will be used: sources and tests written to a folder and
// run by Jest. A test file with failures is first retried with a freshly loaded module per test
// (its tests may have disturbed each other through module state; each scenario ran on a fresh
// module); tests that still fail are dropped and Jest runs again. The suite is final once a run
// passes completely and every kept test has passed at least twice (so flaky tests are caught).
// The coverage reported is the one that final run measured.

const fs = require('node:fs');
const path = require('node:path');
const { runJest, testKey } = require('./jest-run');
const { writeTestFile } = require('./test-writer');

const MAX_ROUNDS = 5;
const ROUND_TO_DROP_WHOLE_FILES = 3;
const MIN_JEST_TIMEOUT_MS = 30000;

function writeFile(root, relativePath, content) {
  const file = path.join(root, relativePath);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

// suites: [{ testPath, spec, cases }]; config: the jest.config.js to add, or null when the sources
// bring their own. Returns { suites, coverage, rounds } with passing cases only.
async function verifySuites({ dir, workDir, sources, config, suites, deadline, log }) {
  for (const source of config ? [...sources, config] : sources) writeFile(dir, source.path, source.content);
  let live = suites.filter((suite) => suite.cases.length);
  const passes = new Map();
  for (let round = 1; round <= MAX_ROUNDS && live.length; round++) {
    for (const suite of suites) fs.rmSync(path.join(dir, suite.testPath), { force: true });
    for (const suite of live) writeFile(dir, suite.testPath, writeTestFile(suite.spec, suite.cases));
    const timeoutMs = Math.max(MIN_JEST_TIMEOUT_MS, deadline - Date.now());
    const started = Date.now();
    const result = await runJest(dir, workDir, { timeoutMs });
    if (!result.ok) {
      log(`verify: ${result.error}`);
      return { suites: [], coverage: null, rounds: round };
    }
    let failures = 0;
    live = live.map((suite) => {
      const outcome = result.suites.get(suite.testPath);
      if (!outcome || outcome.error) {
        log(`verify: ${suite.testPath} did not run: ${outcome ? outcome.error.slice(0, 500) : 'missing from results'}`);
        failures += suite.cases.length;
        return { ...suite, cases: [] };
      }
      const failing = suite.cases.filter((testCase) => outcome.tests.get(testKey(testCase.describe, testCase.name)) !== 'passed');
      failures += failing.length;
      if (failing.length && !suite.spec.isolated) {
        log(`verify: ${suite.testPath}: ${failing.length} failing test(s), retrying with a fresh module per test`);
        suite.cases.forEach((testCase) => passes.delete(testCase));
        return { ...suite, spec: { ...suite.spec, isolated: true } };
      }
      if (failing.length && round >= ROUND_TO_DROP_WHOLE_FILES) return { ...suite, cases: [] };
      const kept = suite.cases.filter((testCase) => !failing.includes(testCase));
      for (const testCase of kept) passes.set(testCase, (passes.get(testCase) || 0) + 1);
      return { ...suite, cases: kept };
    }).filter((suite) => suite.cases.length);
    log(`verify: jest round ${round} (${Date.now() - started} ms, ${live.length} test files): ${failures} failing test(s)`);
    const settled = failures === 0 && live.every((suite) => suite.cases.every((testCase) => passes.get(testCase) >= 2));
    if (settled) return { suites: live, coverage: result.coverage, rounds: round };
  }
  return { suites: [], coverage: null, rounds: MAX_ROUNDS };
}

module.exports = { verifySuites };
