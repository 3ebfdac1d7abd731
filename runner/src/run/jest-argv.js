'use strict';

// Builds the argv that run.js hands to Jest's runCLI: the same settings as
// `jest --ci --coverage --runInBand`, plus what an in-process, one-shot run
// inside a sandbox needs.

const fs = require('node:fs');
const path = require('node:path');

// Jest's own config file names. When a job brings one (or a package.json
// with a "jest" key), it is honoured; the flags below still override it,
// because the run must stay in band, in CI mode, with coverage.
const JEST_CONFIG_NAMES = ['jest.config.js', 'jest.config.cjs', 'jest.config.mjs', 'jest.config.json'];

// Must match kCoverageReportFolder in actors/execution/runner_settings.hpp.
const COVERAGE_REPORT_DIR = '.vouch-coverage';

const SOURCE_GLOB = '**/*.{js,jsx,mjs,cjs,ts,tsx,mts,cts}';
const NOT_SOURCES = [
  '!**/node_modules/**',
  `!${COVERAGE_REPORT_DIR}/**`,
  '!**/*.d.{ts,mts,cts}',
  '!**/{jest,babel}.config.{js,cjs,mjs}',
  '!**/.babelrc.{js,cjs,mjs}',
];

function buildJestArgv({ root, testTimeoutMs, nodePath, cacheDirectory }) {
  return {
    _: [],
    $0: 'vouch-run',
    config: userConfigPath(root) ?? JSON.stringify({ rootDir: root }),
    ci: true,
    runInBand: true,
    watchman: false,
    // Without this, Jest shells out to `find` to list files: a process
    // (counted against the sandbox's process limit) and a dependency.
    haste: JSON.stringify({ forceNodeFilesystemAPI: true }),
    cacheDirectory: cacheDirectory ?? path.join(root, '.jest-cache'),
    testTimeout: testTimeoutMs,
    // Otherwise Jest ends the process when it finds no tests; run.js
    // reports that as an error of its own.
    passWithNoTests: true,
    modulePaths: nodePath ? [nodePath] : undefined,
    // The result travels as one JSON line on stdout, so Jest prints nothing:
    // no reporters, no console output of the tested code; the figures are
    // read from the returned coverage map.
    silent: true,
    reporters: [],
    coverage: true,
    // The run's coverage report, as files in its folder that vouchd keeps
    // (lcov.info, coverage-final.json, and the HTML pages in lcov-report/).
    coverageReporters: ['json', 'lcov'],
    coverageDirectory: path.join(root, COVERAGE_REPORT_DIR),
    // Also keeps Jest from adding its "text-summary" coverage report.
    useStderr: true,
    // Jest leaves test files out of coverage by itself; untested sources
    // count, at 0%, because they are part of what was submitted.
    collectCoverageFrom: [SOURCE_GLOB, ...NOT_SOURCES],
  };
}

function userConfigPath(root) {
  const name = JEST_CONFIG_NAMES.find((candidate) => fs.existsSync(path.join(root, candidate)));
  if (name) return path.join(root, name);
  const packageJson = path.join(root, 'package.json');
  return hasJestKey(packageJson) ? packageJson : undefined;
}

function hasJestKey(packageJson) {
  try {
    return JSON.parse(fs.readFileSync(packageJson, 'utf8')).jest !== undefined;
  } catch {
    return false;
  }
}

module.exports = { buildJestArgv, COVERAGE_REPORT_DIR };
