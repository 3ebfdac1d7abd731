'use strict';

// Runs Jest in this process over one folder and returns its aggregated results.

const { runCLI } = require('jest');
const { buildJestArgv } = require('./jest-argv');

// `cacheDirectory`: Jest's cache, `root/.jest-cache` unless given.
async function runJest(root, { testTimeoutMs, nodePath, cacheDirectory }) {
  const { results } = await runCLI(buildJestArgv({ root, testTimeoutMs, nodePath, cacheDirectory }), [root]);
  return results;
}

module.exports = { runJest };
