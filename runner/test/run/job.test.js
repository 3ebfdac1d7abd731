'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { parseJob } = require('../../src/run/job');

const file = (path) => ({ path, content: '' });

function assertInvalid(job, detailPattern) {
  assert.throws(
    () => parseJob(typeof job === 'string' ? job : JSON.stringify(job)),
    (error) => {
      assert.equal(error.code, 'invalid_job');
      assert.match(error.message, detailPattern);
      return true;
    },
  );
}

test('a job gets default time limits', () => {
  const job = parseJob(JSON.stringify({ files: [file('a.test.js')] }));
  assert.deepEqual(job, { files: [file('a.test.js')], testTimeoutMs: 5000, wallMs: 60000, nodePath: null });
});

test('file paths are normalised', () => {
  const job = parseJob(JSON.stringify({ files: [file('src/./lib//a.js')] }));
  assert.equal(job.files[0].path, 'src/lib/a.js');
});

test('paths that leave the work folder are refused', () => {
  assertInvalid({ files: [file('/etc/passwd')] }, /must be relative/);
  assertInvalid({ files: [file('../escape.js')] }, /must not contain "\.\."/);
  assertInvalid({ files: [file('src/../../escape.js')] }, /must not contain "\.\."/);
  assertInvalid({ files: [file('src\\..\\escape.js')] }, /not a usable path/);
  assertInvalid({ files: [file('src/')] }, /must name a file/);
});

test('malformed jobs are refused with the reason', () => {
  assertInvalid('{"files": [', /not JSON/);
  assertInvalid([], /JSON object/);
  assertInvalid({ files: [] }, /non-empty array/);
  assertInvalid({ files: [{ path: 'a.js' }] }, /files\[0\] must be/);
  assertInvalid({ files: [file('a.js'), file('./a.js')] }, /repeats a\.js/);
  assertInvalid({ files: [file('a.js')], wallMs: 0 }, /wallMs/);
  assertInvalid({ files: [file('a.js')], testTimeoutMs: 1.5 }, /testTimeoutMs/);
  assertInvalid({ files: [file('a.js')], nodePath: 'deps/node_modules' }, /nodePath/);
});
