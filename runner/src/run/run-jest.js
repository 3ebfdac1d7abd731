'use strict';

// Runs Jest in this process over one folder and returns its aggregated results.

const path = require('node:path');
const { runCLI } = require('jest');
const { buildJestArgv } = require('./jest-argv');
const { useBoundedUntestedCoverage } = require('./untested-coverage');

// `cacheDirectory`: Jest's cache, `root/.jest-cache` unless given.
async function runJest(root, { testTimeoutMs, nodePath, cacheDirectory = path.join(root, '.jest-cache') }) {
  useBoundedUntestedCoverage(cacheDirectory);
  const { results } = await runCLI(buildJestArgv({ root, testTimeoutMs, nodePath, cacheDirectory }), [root]);
  return results;
}

module.exports = { runJest };
