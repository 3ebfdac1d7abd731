'use strict';

// vouch-sandbox with plain shell commands: what the sandbox lets through, and
// how it reports. Hostile JavaScript through run.js is in hostile.test.js.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');

const isRoot = process.getuid() === 0;
const { SANDBOX, SANDBOX_WORKDIR } = require('../../src/run/sandbox-launcher');
const probe = spawnSync(SANDBOX, ['--probe'], { encoding: 'utf8' });
// Fails rather than skips where the sandbox cannot be set up, unless
// VOUCH_ALLOW_WEAK_SANDBOX=1 (see hostile.test.js).
const needsBubblewrap =
  !probe.stdout.includes('"bubblewrap"') &&
  process.env.VOUCH_ALLOW_WEAK_SANDBOX === '1' &&
  'needs bubblewrap (skipped: VOUCH_ALLOW_WEAK_SANDBOX=1)';

// A stand-in for the server's folders, outside /tmp (the sandbox gets a /tmp
// of its own, which would hide anything there anyway), and readable by
// anyone, so that only --hide keeps the sandbox out.
function serverFolders() {
  const base = fs.mkdtempSync('/var/tmp/vouch-sandbox-test-');
  fs.chmodSync(base, 0o755);
  const workdir = path.join(base, 'runs', 'run1');
  fs.mkdirSync(workdir, { recursive: true });
  fs.mkdirSync(path.join(base, 'data'));
  fs.writeFileSync(path.join(base, 'data', 'secret'), 'server secret\n');
  return { base, workdir, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

// Runs vouch-sandbox; `input` is written to its stdin after `inputDelayMs`.
function sandbox(args, { input = '', inputDelayMs = 0, env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(SANDBOX, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    let inputAt = null;
    setTimeout(() => {
      inputAt = Date.now();
      child.stdin.end(input);
    }, inputDelayMs);
    child.stdin.on('error', () => {});
    child.on('close', (code) => {
      const report = JSON.parse(stderr.trimEnd().split('\n').pop()).sandbox;
      resolve({ code, stdout, stderr, report, msSinceInput: Date.now() - inputAt });
    });
  });
}

test('--probe names the isolation in effect', () => {
  assert.equal(probe.status, 0);
  const lines = probe.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 1);
  const { isolation, network } = JSON.parse(lines[0]);
  assert.ok(['bubblewrap', 'unshare', 'none'].includes(isolation));
  assert.equal(network, isolation === 'none');
});

test('the command runs in its folder (at a fixed path under bubblewrap), as its own uid, with a clean environment', async () => {
  const { workdir, cleanup } = serverFolders();
  try {
    const env = { ...process.env, VOUCH_BOOTSTRAP_KEY: 'server-only' };
    const run = await sandbox(
      [
        workdir,
        '--',
        'sh',
        '-c',
        'pwd; echo "$HOME"; id -u; echo "key=$VOUCH_BOOTSTRAP_KEY"; echo made > made.txt; exit 7',
      ],
      { env },
    );
    const [cwd, home, uid, key] = run.stdout.trimEnd().split('\n');
    const inside = probe.stdout.includes('"bubblewrap"') ? SANDBOX_WORKDIR : workdir;
    assert.deepEqual({ cwd, home }, { cwd: inside, home: inside });
    assert.equal(key, 'key=');
    if (isRoot) assert.notEqual(uid, '0');
    assert.equal(fs.readFileSync(path.join(workdir, 'made.txt'), 'utf8'), 'made\n');
    assert.deepEqual({ code: run.code, report: run.report }, { code: 7, report: { status: 'exited', code: 7 } });
    assert.match(run.stderr, /^sandbox: isolation \w+, uid \d+/);
  } finally {
    cleanup();
  }
});

test('stdin reaches the command', async () => {
  const { workdir, cleanup } = serverFolders();
  try {
    const run = await sandbox([workdir, '--', 'sh', '-c', 'read line; echo "got $line"'], { input: 'job\n' });
    assert.equal(run.stdout, 'got job\n');
  } finally {
    cleanup();
  }
});

test(
  'hidden folders are empty, the root is read-only, the network is unreachable',
  { skip: needsBubblewrap },
  async () => {
    const { base, workdir, cleanup } = serverFolders();
    const listener = net.createServer((socket) => socket.end('reached\n')).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.on('listening', resolve));
    const script = [
      `cat ${base}/data/secret`,
      `touch ${base}/planted`,
      'touch /var/tmp/planted',
      `node -e "require('net').connect(${listener.address().port}, '127.0.0.1').on('error', (e) => console.error(e.code))"`,
    ].join('; ');
    try {
      const visible = await sandbox([workdir, '--', 'sh', '-c', `cat ${base}/data/secret`]);
      assert.equal(visible.stdout, 'server secret\n', 'without --hide the folder is visible');
      const run = await sandbox([workdir, '--hide', base, '--', 'sh', '-c', script]);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /secret: No such file or directory/);
      assert.match(run.stderr, /planted': Read-only file system[\s\S]*planted': Read-only file system/);
      assert.match(run.stderr, /ECONNREFUSED/);
      assert.ok(!fs.existsSync('/var/tmp/planted'));
    } finally {
      listener.close();
      cleanup();
    }
  },
);

test('--ro shows a folder read-only even inside a hidden one', { skip: needsBubblewrap }, async () => {
  const { base, workdir, cleanup } = serverFolders();
  const deps = path.join(base, 'deps', 'node_modules');
  fs.mkdirSync(deps, { recursive: true });
  fs.writeFileSync(path.join(deps, 'dep.js'), 'dep\n');
  try {
    const run = await sandbox([
      workdir,
      '--hide',
      base,
      '--ro',
      deps,
      '--',
      'sh',
      '-c',
      `cat ${deps}/dep.js; touch ${deps}/new`,
    ]);
    assert.equal(run.stdout, 'dep\n');
    assert.match(run.stderr, /new': Read-only file system/);
  } finally {
    cleanup();
  }
});

test(
  'the unshare fallback still cuts the network, and says what it lacks',
  { skip: !isRoot && process.env.VOUCH_ALLOW_WEAK_SANDBOX === '1' && 'unshare -n needs root' },
  async () => {
    const { workdir, cleanup } = serverFolders();
    const listener = net.createServer((socket) => socket.end()).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.on('listening', resolve));
    const connect = `require('net').connect(${listener.address().port}, '127.0.0.1').on('error', (e) => console.log(e.code)).on('connect', () => console.log('connected'))`;
    try {
      const run = await sandbox([workdir, '--isolation', 'unshare', '--', 'node', '-e', connect]);
      assert.match(run.stdout, /^(ENETUNREACH|ECONNREFUSED)\n$/);
      assert.match(
        run.stderr,
        /^sandbox: isolation unshare, uid \d+; file system not isolated, --hide and --ro not applied$/m,
      );
    } finally {
      listener.close();
      cleanup();
    }
  },
);

test('the wall clock starts with the first byte of stdin', async () => {
  const { workdir, cleanup } = serverFolders();
  try {
    const started = Date.now();
    const run = await sandbox([workdir, '--wall-ms', '500', '--', 'sh', '-c', 'read line; sleep 10'], {
      input: 'job\n',
      inputDelayMs: 1000,
    });
    assert.ok(Date.now() - started >= 1000, 'not killed while waiting for its job');
    assert.ok(run.msSinceInput >= 500 && run.msSinceInput < 3000, `killed ${run.msSinceInput} ms after the job`);
    assert.deepEqual(
      { code: run.code, report: run.report },
      {
        code: 202,
        report: { status: 'limit', code: 'wall_time_limit', detail: 'wall time limit exceeded (500 ms)' },
      },
    );
  } finally {
    cleanup();
  }
});

test('a file past --max-file-mb kills a command that does not catch SIGXFSZ', async () => {
  const { workdir, cleanup } = serverFolders();
  try {
    const run = await sandbox([workdir, '--max-file-mb', '1', '--', 'sh', '-c', 'head -c 2000000 /dev/zero > big']);
    assert.equal(fs.statSync(path.join(workdir, 'big')).size, 1024 * 1024);
    assert.equal(run.report.code, 'file_size_limit');
    assert.equal(run.code, 204);
  } finally {
    cleanup();
  }
});

test('a bad command line is a sandbox failure', async () => {
  const run = await sandbox(['/nonexistent-folder', '--', 'true']);
  assert.deepEqual(
    { code: run.code, report: run.report },
    {
      code: 210,
      report: { status: 'error', code: 'sandbox_failed', detail: 'WORKDIR is not a folder: /nonexistent-folder' },
    },
  );
});
