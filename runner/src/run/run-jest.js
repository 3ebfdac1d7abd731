'use strict';

// Runs Jest in this process over one folder and returns its aggregated results.

const { runCLI } = require('jest');
const { buildJestArgv } = require('./jest-argv');

async function runJest(root, { testTimeoutMs, nodePath }) {
  const { results } = await runCLI(buildJestArgv({ root, testTimeoutMs, nodePath }), [root]);
  return results;
}

module.exports = { runJest };
