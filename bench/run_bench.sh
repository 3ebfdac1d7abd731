#!/usr/bin/env bash
# Compares the warm runner with a cold Jest on the same small suite.
#
#   (a) cold: `node node_modules/jest/bin/jest.js --coverage --ci` in the suite's folder;
#   (b) warm: time from writing the job to an already ready run.js (inside
#       vouch-sandbox, as the server runs it) to its result line.
#
# The two alternate, so both see the same machine load. Prints median and p90
# of each and the ratio of the medians, b/a.
#
# Usage: bench/run_bench.sh [RUNS]     (default 20)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

runs="${1:-20}"
runner_dir="$(cd "$(dirname "$0")/../runner" && pwd)"

cd "$runner_dir"
RUNS="$runs" node - <<'EOF'
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { WarmRunner } = require('./src/run/client');
const { writeFiles } = require('./src/run/workspace');

const runs = Number(process.env.RUNS);
const jestBin = path.resolve('node_modules/jest/bin/jest.js');
// Time a pooled runner sits idle before its job; in the server it is longer.
const IDLE_BEFORE_JOB_MS = 200;

const files = [
  { path: 'src/math.js', content: `
function add(a, b) { return a + b; }
function divide(a, b) {
  if (b === 0) throw new Error('division by zero');
  return a / b;
}
module.exports = { add, divide };
` },
  { path: 'src/stack.js', content: fs.readFileSync('../tests/fixtures/classes/stack.js', 'utf8') },
  { path: 'src/slug.js', content: `
module.exports = function slug(text, separator = '-') {
  return text.toLowerCase().trim().replace(/[^a-z0-9]+/g, separator).replace(/^-|-$/g, '');
};
` },
  { path: 'src/__tests__/math.test.js', content: `
const { add, divide } = require('../math');
describe('math', () => {
  test('adds', () => expect(add(2, 3)).toBe(5));
  test('divides', () => expect(divide(9, 3)).toBe(3));
  test('refuses zero', () => expect(() => divide(1, 0)).toThrow('division by zero'));
});
` },
  { path: 'src/__tests__/stack.test.js', content: `
const { Stack } = require('../stack');
describe('Stack', () => {
  test('pops what was pushed', () => expect(new Stack().push(1).push(2).pop()).toBe(2));
  test('counts', () => expect(new Stack().push('a').size).toBe(1));
  test('refuses to pop when empty', () => expect(() => new Stack().pop()).toThrow(RangeError));
});
` },
  { path: 'src/__tests__/slug.test.js', content: `
const slug = require('../slug');
test.each([['Hello World', 'hello-world'], ['  A  b ', 'a-b']])('slug(%p)', (text, expected) => {
  expect(slug(text)).toBe(expected);
});
` },
];

function cold() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-bench-cold-'));
  writeFiles(root, [...files, { path: 'package.json', content: '{}' }]);
  const started = process.hrtime.bigint();
  const jest = spawnSync(process.execPath, [jestBin, '--coverage', '--ci'], { cwd: root, stdio: 'ignore' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  fs.rmSync(root, { recursive: true, force: true });
  if (jest.status !== 0) throw new Error(`cold jest failed with status ${jest.status}`);
  return ms;
}

async function warm() {
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-bench-warm-'));
  try {
    const runner = await WarmRunner.start({ workdir, sandboxOptions: [] });
    await new Promise((resolve) => setTimeout(resolve, IDLE_BEFORE_JOB_MS));
    const { result, durationMs } = await runner.run({ files });
    if (!result?.ok || result.results.passed !== 8) throw new Error(`warm run failed: ${JSON.stringify(result)}`);
    return durationMs;
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

(async () => {
  const coldMs = [];
  const warmMs = [];
  for (let i = 0; i < runs; i += 1) {
    coldMs.push(cold());
    warmMs.push(await warm());
  }
  const row = (name, values) => `${name.padEnd(38)} median ${quantile(values, 0.5).toFixed(0).padStart(5)} ms   p90 ${quantile(values, 0.9).toFixed(0).padStart(5)} ms`;
  console.log(`${runs} runs of a 3-file suite with 8 tests, on ${os.cpus().length} CPUs`);
  console.log(row('(a) cold jest --coverage --ci', coldMs));
  console.log(row('(b) warm run.js in vouch-sandbox, job→result', warmMs));
  console.log(`ratio b/a (medians)                    ${(quantile(warmMs, 0.5) / quantile(coldMs, 0.5)).toFixed(2)}`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
EOF
