'use strict';
// Runs Jest once over a folder of sources and generated tests, as the run side (bin/run.js) does:
// the folder as root, coverage on, and coverage counted over every submitted source file, tested
// or not (the same collectCoverageFrom as src/run/jest-argv.js). Returns each test's status and
// the coverage summary.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { testEnvironment } = require('./test-environment');
const path = require('node:path');

const JEST_BIN = require.resolve('jest/bin/jest');
const BABEL_PLUGIN = '@babel/plugin-transform-modules-commonjs';
const COVERAGE_FROM = ['**/*.{js,jsx,mjs,cjs}', '!**/node_modules/**', '!**/{jest,babel}.config.{js,cjs,mjs}', '!**/.babelrc.{js,cjs,mjs}'];

function testKey(describe, name) {
  return `${describe}\0${name}`;
}

// The emitted jest.config.js may name the ES module plugin. The run side resolves it through
// NODE_PATH, set only for the toolchain; here the folder gets a node_modules holding just that
// plugin, so the code under test still resolves no package of the runner's, as on the run side.
function linkBabelPlugin(dir) {
  const link = path.join(dir, 'node_modules', ...BABEL_PLUGIN.split('/'));
  if (fs.existsSync(link)) return;
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(path.dirname(require.resolve(`${BABEL_PLUGIN}/package.json`)), link, 'dir');
}

// Returns { ok, suites: Map(testPath -> { error, tests: Map(key -> status) }), coverage, error }.
async function runJest(dir, workDir, { timeoutMs }) {
  linkBabelPlugin(dir);
  const resultsFile = path.join(workDir, 'results.json');
  const coverageDir = path.join(workDir, 'coverage');
  fs.rmSync(resultsFile, { force: true });
  fs.rmSync(coverageDir, { recursive: true, force: true });
  const args = [JEST_BIN, '--ci', '--json', `--outputFile=${resultsFile}`, '--coverage', '--coverageReporters=json-summary',
    `--coverageDirectory=${coverageDir}`, `--cacheDirectory=${path.join(workDir, 'jest-cache')}`, '--runInBand', '--forceExit', '--silent',
    ...COVERAGE_FROM.map((glob) => `--collectCoverageFrom=${glob}`)];
  const stderr = await new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: dir, env: testEnvironment(), stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr.on('data', (chunk) => { if (output.length < 20000) output += chunk; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', () => { clearTimeout(timer); resolve(output); });
  });
  if (!fs.existsSync(resultsFile)) return { ok: false, error: `jest produced no results: ${stderr.slice(-2000)}` };
  const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  const suites = new Map();
  for (const suite of results.testResults) {
    const tests = new Map(suite.assertionResults.map((test) => [testKey(test.ancestorTitles.join(' '), test.title), test.status]));
    const error = suite.status === 'failed' && !suite.assertionResults.length ? suite.message || 'the test file failed to run' : null;
    suites.set(path.relative(dir, suite.name).split(path.sep).join('/'), { error, tests });
  }
  const summaryFile = path.join(coverageDir, 'coverage-summary.json');
  const coverage = fs.existsSync(summaryFile) ? JSON.parse(fs.readFileSync(summaryFile, 'utf8')) : null;
  return { ok: true, suites, coverage };
}

module.exports = { runJest, testKey };
