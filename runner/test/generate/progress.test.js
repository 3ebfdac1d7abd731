'use strict';
// bin/generate.js --progress: one progress line per phase before the result line, and without
// the flag the result alone, as before.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const GENERATE = path.resolve(__dirname, '..', '..', 'bin', 'generate.js');
const JOB = {
  files: [
    { path: 'src/sign.js', content: 'exports.sign = (n) => (n === 0 ? 0 : n > 0 ? 1 : -1);\n' },
    { path: 'src/broken.js', content: 'exports.x = (;\n' },
    { path: 'README.md', content: '# not a source\n' },
  ],
  timeBudgetMs: 4000,
};

function lines(args) {
  const output = spawnSync(process.execPath, [GENERATE, ...args], { input: JSON.stringify(JOB), maxBuffer: 64 << 20 });
  assert.equal(output.status, 0, output.stderr.toString());
  return output.stdout
    .toString()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

test('with --progress, each phase is told before the result, counts within the totals', () => {
  const all = lines(['--progress']);
  const result = all.pop();
  assert.ok(Array.isArray(result.files) && result.summary, 'the last line is the result');
  const progress = all.map((line) => line.progress);
  assert.ok(progress.every(Boolean), 'every other line is progress');
  assert.deepEqual(
    progress.map((p) => p.phase),
    ['analysing', 'loading', 'searching', 'shrinking', 'mutating', 'verifying', 'writing'],
  );
  // Two sources (README.md is not one); the one that does not parse is done from loading on.
  assert.ok(progress.every((p) => p.filesTotal === 2 && p.filesDone <= p.filesTotal));
  assert.equal(progress[0].filesDone, 0);
  assert.equal(progress[1].filesDone, 1);
  const last = progress[progress.length - 1];
  assert.equal(last.filesDone, 2);
  assert.equal(last.testsKept, result.summary.testsKept);
  assert.ok(last.testsKept > 0);
});

test('without --progress, stdout holds the result line only', () => {
  const all = lines([]);
  assert.equal(all.length, 1);
  assert.ok(all[0].summary);
});
