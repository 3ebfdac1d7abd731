'use strict';

// Warms Jest up before run.js says it is ready.
//
// Jest loads most of its modules lazily, on first use: the transformer, the
// coverage instrumenter, the test framework, the failure formatter. Running
// a small suite with coverage, with common matchers and one failure, pays
// that cost (and V8's warm-up of Babel and Jest) while no job is waiting.
// It also checks that Jest works at all, so a broken runner fails at start
// rather than on a job.

const fs = require('node:fs');
const path = require('node:path');
const { runJest } = require('./run-jest');
const { writeFiles } = require('./workspace');
const { ROUNDS } = require('./run-options');

const SUITE_DIR = path.join(__dirname, 'warm-up-suite');
// The test file is stored under a name no test runner picks up by itself.
const SUITE_FILES = [
  { stored: 'ledger.js', path: 'ledger.js' },
  { stored: 'ledger.jest.js', path: 'ledger.test.js' },
];
const EXPECTED = { passed: 6, failed: 1 };
// Must match kWarmUpCacheFolder in actors/execution/runner_settings.hpp.
const WARM_UP_FOLDER = '.vouch-warm-up';
const WARM_UP_CACHE = '.vouch-warm-up-cache';

// Runs the warm-up in a folder of its own inside `workdir`, removed before
// the job's files arrive. `rounds` (0 to ROUNDS) trades the runner's start-up
// for its job's speed: the server asks for none when runs are already waiting
// (the start is then on their path, and a round costs more than the job
// saves by it) and for all when it has time. With none, Jest is loaded but
// not tried: a broken Jest shows in the job's result instead of at start.
//
// The folder has the same name in every runner, and Jest's cache for it is
// kept beside it (WARM_UP_CACHE), where the server finds it when the runner
// says it is ready, before any job: it lends it to the next runners, whose
// warm-up then finds its transforms, as most jobs find theirs, and does not
// load Babel (runner_cache/transform_cache.hpp).
async function primeJest(workdir, rounds = ROUNDS) {
  if (rounds === 0) return;
  const root = path.join(workdir, WARM_UP_FOLDER);
  try {
    writeFiles(
      root,
      SUITE_FILES.map((file) => ({
        path: file.path,
        content: fs.readFileSync(path.join(SUITE_DIR, file.stored), 'utf8'),
      })),
    );
    const cacheDirectory = path.join(workdir, WARM_UP_CACHE);
    for (let round = 0; round < rounds; round += 1) await runSample(root, cacheDirectory);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function runSample(root, cacheDirectory) {
  const results = await runJest(root, { testTimeoutMs: 5000, nodePath: null, cacheDirectory });
  const counts = { passed: results.numPassedTests, failed: results.numFailedTests };
  if (counts.passed !== EXPECTED.passed || counts.failed !== EXPECTED.failed || !results.coverageMap) {
    throw new Error(`Jest gave unexpected results for the warm-up suite: ${JSON.stringify(counts)}`);
  }
}

module.exports = { primeJest, WARM_UP_CACHE };
