'use strict';

// How sandbox.js names the way a command ended. The real limits are
// exercised end to end in hostile.test.js; this covers the mapping itself.

const test = require('node:test');
const assert = require('node:assert/strict');
const { describeOutcome } = require('../../src/run/sandbox/outcome');

const limits = { cpuSeconds: 3, memoryMb: 384, maxProcs: 64, maxFileMb: 1, wallMs: 2000 };
const describe = (facts) => describeOutcome({ viaBwrap: true, wallExpired: false, stderrTail: '', limits, ...facts });

test('a normal exit passes its code on', () => {
  assert.deepEqual(describe({ exit: { code: 1, signal: null } }), {
    report: { status: 'exited', code: 1 },
    exitCode: 1,
  });
});

test('bwrap reports a death by signal as 128 + N', () => {
  assert.deepEqual(describe({ exit: { code: 152, signal: null } }).report, {
    status: 'limit', code: 'cpu_time_limit', detail: 'cpu time limit exceeded (3 s)',
  });
  assert.deepEqual(describe({ exit: { code: 139, signal: null } }), {
    report: { status: 'signaled', signal: 'SIGSEGV' },
    exitCode: 139,
  });
});

test('without bwrap the signal itself is seen, and 128 + N is a plain exit code', () => {
  assert.equal(describe({ viaBwrap: false, exit: { code: null, signal: 'SIGXFSZ' } }).report.code, 'file_size_limit');
  assert.deepEqual(describe({ viaBwrap: false, exit: { code: 152, signal: null } }).report, { status: 'exited', code: 152 });
});

test('the wall timer wins over the signal it sent', () => {
  const outcome = describe({ wallExpired: true, exit: { code: 137, signal: null } });
  assert.deepEqual(outcome, {
    report: { status: 'limit', code: 'wall_time_limit', detail: 'wall time limit exceeded (2000 ms)' },
    exitCode: 202,
  });
});

test('an abort is a memory limit only when node said it ran out of memory', () => {
  const oom = 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory';
  assert.equal(describe({ exit: { code: 134, signal: null }, stderrTail: oom }).report.code, 'memory_limit');
  assert.deepEqual(describe({ exit: { code: 134, signal: null }, stderrTail: 'assertion failed' }).report, {
    status: 'signaled', signal: 'SIGABRT',
  });
});
