'use strict';

// Hostile tested code, run the way the server runs it: run.js under
// vouch-sandbox. Each run must end in an error or in failed tests, with the
// result or the sandbox's report saying what stopped it.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { WarmRunner } = require('../../src/run/client');

const { SANDBOX } = require('../../src/run/sandbox-launcher');
const isRoot = process.getuid() === 0;
const probe = JSON.parse(spawnSync(SANDBOX, ['--probe'], { encoding: 'utf8' }).stdout);
// These tests prove the sandbox holds; where it cannot be set up they fail,
// unless VOUCH_ALLOW_WEAK_SANDBOX=1 says to skip what needs it, knowingly.
const weakSandboxAllowed = process.env.VOUCH_ALLOW_WEAK_SANDBOX === '1';
const needsBubblewrap =
  probe.isolation !== 'bubblewrap' && weakSandboxAllowed && 'needs bubblewrap (skipped: VOUCH_ALLOW_WEAK_SANDBOX=1)';
const needsRoot = !isRoot && weakSandboxAllowed && 'the process limit needs root (skipped: VOUCH_ALLOW_WEAK_SANDBOX=1)';

test('the sandbox isolates with bubblewrap here', { skip: weakSandboxAllowed && 'VOUCH_ALLOW_WEAK_SANDBOX=1' }, () => {
  assert.equal(
    probe.isolation,
    'bubblewrap',
    'the hostile-code tests need bubblewrap: install it (scripts/setup.sh does), ' +
      'or set VOUCH_ALLOW_WEAK_SANDBOX=1 to skip the cases that need it',
  );
  assert.ok(isRoot, 'the process limit needs root, or set VOUCH_ALLOW_WEAK_SANDBOX=1');
});

// Small limits, so that each case ends quickly. Starting and priming Jest
// takes one to two CPU seconds, which the CPU limit includes.
const LIMITS = [
  '--cpu-seconds',
  '3',
  '--memory-mb',
  '384',
  '--max-procs',
  '48',
  '--max-file-mb',
  '1',
  '--wall-ms',
  '20000',
];

// The server's folders: its data (with a secret), and the run's work folder
// among the other runs'. Outside /tmp, because the sandbox gets a /tmp of
// its own; readable by anyone, so only --hide keeps the sandbox out.
let server;
test.before(() => {
  const base = fs.mkdtempSync('/var/tmp/vouch-hostile-test-');
  fs.chmodSync(base, 0o755);
  fs.mkdirSync(path.join(base, 'data'));
  fs.writeFileSync(path.join(base, 'data', 'secret'), 'server secret');
  fs.mkdirSync(path.join(base, 'runs'));
  server = { base, secret: path.join(base, 'data', 'secret'), runs: 0 };
});
test.after(() => fs.rmSync(server.base, { recursive: true, force: true }));

// Filling 384 MB takes V8's collector about two more CPU seconds (with its
// threads, more than the wall time) on a 2-core machine: the memory cases
// get room to meet the memory limit before the CPU limit.
const MEMORY_CASE = ['--cpu-seconds', '15'];

async function runHostile(testSource, extraOptions = []) {
  server.runs += 1;
  const workdir = path.join(server.base, 'runs', `run${server.runs}`);
  fs.mkdirSync(workdir);
  const runner = await WarmRunner.start({
    workdir,
    sandboxOptions: [...LIMITS, '--hide', server.base, ...extraOptions],
  });
  return runner.run({ files: [{ path: 'hostile.test.js', content: testSource }] });
}

// The sandbox stopped the run at a limit, before the runner could answer.
function assertStoppedAt(outcome, { code, detail, exitCode }) {
  assert.equal(outcome.result, null);
  assert.deepEqual(outcome.sandbox, { status: 'limit', code, detail });
  assert.equal(outcome.exit.code, exitCode);
}

function onlyTest(outcome) {
  assert.equal(
    outcome.result?.ok,
    true,
    `a result with test results: ${JSON.stringify(outcome.result)}\n${outcome.stderr}`,
  );
  assert.equal(outcome.result.results.failed, 1);
  return outcome.result.results.tests[0];
}

test('opening a network connection fails', { skip: needsBubblewrap }, async () => {
  const listener = net.createServer((socket) => socket.end()).listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.on('listening', resolve));
  try {
    const outcome = await runHostile(`
      const net = require('net');
      test('phones home', () => new Promise((resolve, reject) => {
        net.connect(${listener.address().port}, '127.0.0.1', resolve).on('error', reject);
      }));`);
    assert.match(onlyTest(outcome).message, /ECONNREFUSED/);
  } finally {
    listener.close();
  }
});

test('forking without end is stopped by the process limit', { skip: needsRoot }, async () => {
  const outcome = await runHostile(`
    const { spawn } = require('child_process');
    test('forks', async () => {
      for (;;) {
        await new Promise((resolve, reject) => spawn('sleep', ['60']).on('spawn', resolve).on('error', reject));
      }
    });`);
  assert.equal(outcome.result.error.code, 'process_limit');
  assert.match(outcome.result.error.detail, /spawn sleep EAGAIN/);
  assert.equal(outcome.result.results.failed, 1);
});

test('looping forever is killed at the CPU limit', async () => {
  const outcome = await runHostile("test('spins', () => { for (;;) {} });");
  assertStoppedAt(outcome, { code: 'cpu_time_limit', detail: 'cpu time limit exceeded (3 s)', exitCode: 201 });
});

test('blocking forever is killed at the wall-time limit', async () => {
  const outcome = await runHostile(
    "test('waits', () => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); });",
    ['--wall-ms', '1500'],
  );
  assertStoppedAt(outcome, { code: 'wall_time_limit', detail: 'wall time limit exceeded (1500 ms)', exitCode: 202 });
});

test('allocating without end is stopped by the memory limit', async () => {
  const outcome = await runHostile(
    `
    test('hoards', () => {
      const hoard = [];
      for (;;) hoard.push(new Array(1e6).fill(Math.random()));
    });`,
    MEMORY_CASE,
  );
  assertStoppedAt(outcome, { code: 'memory_limit', detail: 'memory limit exceeded (384 MB)', exitCode: 203 });
});

test('allocating buffers without end is stopped by the memory limit', async () => {
  const outcome = await runHostile(
    `
    test('hoards buffers', () => {
      const hoard = [];
      for (;;) hoard.push(Buffer.alloc(32 << 20, 1));
    });`,
    MEMORY_CASE,
  );
  // Usually a Buffer allocation fails and the test with it; if V8 itself
  // finds no room first, the process aborts and the launcher reports it.
  const reported = outcome.result?.error ?? outcome.sandbox;
  assert.equal(reported.code, 'memory_limit');
  assert.match(reported.detail, /Array buffer allocation failed|memory limit exceeded \(384 MB\)/);
});

test('writing a large file is stopped by the file size limit', async () => {
  const outcome = await runHostile(`
    const fs = require('fs');
    test('fills the disk', () => { fs.writeFileSync('big.bin', Buffer.alloc(4 << 20)); });`);
  assert.equal(outcome.result.error.code, 'file_size_limit');
  assert.match(outcome.result.error.detail, /EFBIG/);
});

test('a hidden folder of the server reads as empty', { skip: needsBubblewrap }, async () => {
  const outcome = await runHostile(`
    const fs = require('fs');
    test('steals', () => { expect(fs.readFileSync(${JSON.stringify(server.secret)}, 'utf8')).toBe('server secret'); });`);
  assert.match(onlyTest(outcome).message, /ENOENT: no such file or directory/);
});

test('writing outside the work folder fails', { skip: needsBubblewrap }, async () => {
  const outcome = await runHostile(`
    const fs = require('fs');
    test('plants', () => { fs.writeFileSync(${JSON.stringify(path.join(__dirname, 'planted.js'))}, 'x'); });`);
  assert.match(onlyTest(outcome).message, /EROFS: read-only file system/);
  assert.ok(!fs.existsSync(path.join(__dirname, 'planted.js')));
});

test('signalling its parent leaves the launcher and the server running', async () => {
  const outcome = await runHostile("test('kills its parent', () => { process.kill(process.ppid, 'SIGKILL'); });");
  assert.match(onlyTest(outcome).message, /kill EPERM/);
  assert.deepEqual(outcome.sandbox, { status: 'exited', code: 0 });
});

test('a file size error the tested code swallows is still reported', async () => {
  const outcome = await runHostile(`
    const fs = require('fs');
    test('fills the disk quietly', () => {
      try { fs.writeFileSync('big.bin', Buffer.alloc(4 << 20)); } catch {}
    });`);
  assert.equal(outcome.result.results.passed, 1);
  assert.equal(outcome.result.error.code, 'file_size_limit');
});
