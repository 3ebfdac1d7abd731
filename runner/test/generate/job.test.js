'use strict';
// Job validation and file classification.

const test = require('node:test');
const assert = require('node:assert/strict');
const { parseJob, JobError } = require('../../src/generate/job');
const { classifySource } = require('../../src/generate/analysis/source-kind');
const { parseSource, SourceSyntaxError } = require('../../src/generate/analysis/parse');

test('reads a job and fills in defaults', () => {
  const job = parseJob(JSON.stringify({ files: [{ path: './src//a.js', content: '' }] }));
  assert.deepEqual(job, {
    files: [{ path: 'src/a.js', content: '' }],
    framework: 'jest',
    threshold: 80,
    timeBudgetMs: 20000,
  });
});

test("reads the run path's limits, which verification's runs are held to", () => {
  const job = parseJob(
    JSON.stringify({
      files: [{ path: 'a.js', content: '' }],
      runLimits: { memoryMb: 1024, nodeOptions: '--max-old-space-size=768' },
    }),
  );
  assert.deepEqual(job.runLimits, { memoryMb: 1024, nodeOptions: '--max-old-space-size=768' });
});

test('rejects malformed jobs with a reason', () => {
  const bad = [
    'not json',
    '[]',
    '{"files":[]}',
    '{"files":[{"path":"../x.js","content":""}]}',
    '{"files":[{"path":"/abs.js","content":""}]}',
    '{"files":[{"path":"a.js"}]}',
    '{"files":[{"path":"a.js","content":""}],"framework":"mocha"}',
    '{"files":[{"path":"a.js","content":""}],"timeBudgetMs":-1}',
    '{"files":[{"path":"a.js","content":""}],"wallLimitMs":"1s"}',
    '{"files":[{"path":"a.js","content":""},{"path":"a.js","content":""}]}',
    '{"files":[{"path":"a.js","content":""}],"runLimits":1024}',
    '{"files":[{"path":"a.js","content":""}],"runLimits":{"memoryMb":"1024"}}',
    '{"files":[{"path":"a.js","content":""}],"runLimits":{"memoryMb":10.5}}',
    '{"files":[{"path":"a.js","content":""}],"runLimits":{"memoryMb":1024,"nodeOptions":7}}',
  ];
  for (const text of bad) assert.throws(() => parseJob(text), JobError, text);
});

test('sorts files into JavaScript (TypeScript included), support files and foreign sources', () => {
  for (const path of ['a.js', 'a.mjs', 'a.cjs', 'a.ts', 'A.tsx', 'a.mts', 'a.cts'])
    assert.equal(classifySource(path, 'x').kind, 'javascript', path);
  for (const path of [
    'package.json',
    'data/words.json',
    'types/index.d.ts',
    'types/a.d.mts',
    'README.md',
    'notes.txt',
    'Makefile',
    'fixtures/a.csv',
  ]) {
    assert.equal(classifySource(path, 'x').kind, 'support', path);
  }
  assert.match(classifySource('App.jsx', 'x').reason, /\.jsx is not a JavaScript or TypeScript file/);
  assert.equal(classifySource('a.coffee', 'x').kind, 'foreign');
  assert.match(classifySource('a.js', 'PK\u0003\u0004\u0000\u0000').reason, /binary/);
});

test('parses sloppy scripts and ES modules, and locates syntax errors (1-based column)', () => {
  assert.equal(parseSource('with (a) { b = 010; }').sourceType, 'script');
  assert.equal(parseSource('export const a = 1;').esm, true);
  assert.equal(parseSource('module.exports = 1;').esm, false);
  assert.throws(
    () => parseSource('const a = 1;\nfunction (x {\n'),
    (error) => {
      assert.ok(error instanceof SourceSyntaxError);
      assert.equal(error.line, 2);
      assert.equal(error.column, 10);
      return true;
    },
  );
});
