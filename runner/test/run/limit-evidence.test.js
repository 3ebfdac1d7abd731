'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { limitEvidence } = require('../../src/run/limit-evidence');

test('failed system calls are traced to the limit behind them', () => {
  assert.equal(limitEvidence(['Error: spawn sleep EAGAIN']).code, 'process_limit');
  assert.equal(limitEvidence(['Error: spawnSync /bin/sh EAGAIN']).code, 'process_limit');
  assert.equal(limitEvidence(['sh: 1: Cannot fork']).code, 'process_limit');
  assert.equal(limitEvidence(['Error: EFBIG: file too large, write']).code, 'file_size_limit');
  assert.equal(limitEvidence(['RangeError: Array buffer allocation failed']).code, 'memory_limit');
});

test('the detail quotes the line that shows the limit', () => {
  const evidence = limitEvidence(['expect(received).toBe(expected)\n\nError: EFBIG: file too large, write']);
  assert.match(evidence.detail, /^file size limit exceeded: .*\(Error: EFBIG: file too large, write\)$/);
});

test('ordinary failures show no limit', () => {
  assert.equal(limitEvidence([]), null);
  assert.equal(limitEvidence(['Error: expect(received).toBe(expected)', 'Error: read EAGAIN']), null);
});
