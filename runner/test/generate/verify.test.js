'use strict';
// Verification runs the tests the way a run does (bin/run.js) and drops a bad test on its own:
// one that fails when run again, one that breaks the run after the tests, never the rest.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { verifySuites } = require('../../src/generate/verification/verify');
const { jestConfigFile } = require('../../src/generate/writing/jest-config');

const SOURCE = {
  path: 'm.js',
  content: `exports.add = (a, b) => a + b;
exports.later = (callback, ms) => { setTimeout(() => callback(), ms); return 'scheduled'; };
`,
};

function testCase(name, lines) {
  return { describe: 'm', name, lines, async: false, helpers: new Set() };
}

// verifySuites on one suite of `cases` over SOURCE (with `options` beside): what it verified and
// the lines it logged.
async function verify(workDir, cases, options = {}) {
  const logs = [];
  const verified = await verifySuites({
    workDir,
    sources: [SOURCE],
    config: jestConfigFile({ esm: false }),
    suites: [
      {
        testPath: '__tests__/m.test.js',
        spec: { sourcePath: 'm.js', request: '../m', esm: false, bindings: [{ name: 'm', from: 'module' }] },
        cases,
      },
    ],
    deadline: Date.now() + 60000,
    log: (line) => logs.push(line),
    ...options,
  });
  return { verified, log: logs.join('\n') };
}

// The names of the tests kept, in order.
const keptNames = (verified) => verified.suites.flatMap((suite) => suite.cases.map((c) => c.name));

test('drops a test that fails when run again and a test whose timer breaks the run after the tests; keeps the rest', async () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  const counter = path.join(workDir, 'runs-of-flaky-test');
  try {
    const cases = [
      testCase('adds', ['expect(m.add(1, 2)).toBe(3);']),
      // Passes in the first run only.
      testCase('flaky', [
        `const runs = Number(require('fs').existsSync(${JSON.stringify(counter)}) ? require('fs').readFileSync(${JSON.stringify(counter)}, 'utf8') : 0) + 1;`,
        `require('fs').writeFileSync(${JSON.stringify(counter)}, String(runs));`,
        'expect(runs).toBe(1);',
      ]),
      // Passes, then calls an undefined callback right after: a run counts that error.
      testCase('schedules', ["expect(m.later(undefined, 0)).toBe('scheduled');"]),
      testCase('adds strings', ["expect(m.add('a', 'b')).toBe('ab');"]),
    ];
    const { verified, log } = await verify(workDir, cases);
    assert.deepEqual(keptNames(verified), ['adds', 'adds strings'], log);
    assert.equal(verified.files.find((file) => file.path === 'm.js').coverage.functions, 33.33);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test('with prestarted runners, round 2 runs beside round 1 and counts only when round 1 left the suite unchanged', async () => {
  const { startRunner } = require('../../src/generate/verification/run-suite');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  const prestart = (label) => [1, 2].map((n) => startRunner(path.join(workDir, `${label}-${n}`)));
  const runners = [];
  try {
    // Every test passes: both runs count, the suite is settled after the pair.
    const passing = prestart('passing');
    runners.push(...passing);
    const { verified: settled } = await verify(workDir, [testCase('adds', ['expect(m.add(1, 2)).toBe(3);'])], {
      prestarted: passing,
    });
    assert.equal(settled.rounds, 2);
    assert.deepEqual(keptNames(settled), ['adds']);

    // A failing test changes the suite in round 1: the early round 2 is not counted, the failing
    // test is dropped on its own and the rest passes twice more.
    const failing = prestart('failing');
    runners.push(...failing);
    const { verified, log } = await verify(
      workDir,
      [testCase('adds', ['expect(m.add(1, 2)).toBe(3);']), testCase('wrong', ['expect(m.add(1, 2)).toBe(4);'])],
      { prestarted: failing },
    );
    assert.deepEqual(keptNames(verified), ['adds'], log);
    assert.ok(verified.rounds > 2, log);
  } finally {
    runners.forEach((runner) => runner.stop());
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test("the even rounds run as another user on another machine: a test asserting the sandbox's uid, host or home is dropped, the rest kept", async () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  const elsewhere = { home: path.join(workDir, 'elsewhere-home'), tmp: path.join(workDir, 'elsewhere-tmp') };
  Object.values(elsewhere).forEach((dir) => fs.mkdirSync(dir));
  try {
    const cases = [
      testCase('adds', ['expect(m.add(1, 2)).toBe(3);']),
      testCase('uid', [`expect(process.getuid()).toBe(${process.getuid()});`]),
      testCase('host', [`expect(require('os').hostname()).toBe(${JSON.stringify(os.hostname())});`]),
      testCase('home', [`expect(require('os').homedir()).toBe(${JSON.stringify(os.homedir())});`]),
      testCase('uid by type', ['expect(process.getuid()).toEqual(expect.any(Number));']),
    ];
    const { verified, log } = await verify(workDir, cases, { elsewhere });
    assert.deepEqual(keptNames(verified), ['adds', 'uid by type'], log);
    assert.match(log, /round 2 .*another user's environment/);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test('a run may take all the wall time left until one has completed, then twice the longest', () => {
  const { runWallMs } = require('../../src/generate/verification/verify');
  const now = 1000000; // budget time and wall time alike here
  // The budget ended 5 s ago; 70 s are left before the hard deadline, 10 s of them to stop.
  const context = { deadline: now - 5000, hardDeadline: now + 70000 };
  assert.equal(runWallMs(context, now, now), 60000);
  // A run completed in 25 s: the next may take 50 s, and never less than 30 s.
  context.longestRunMs = 25000;
  assert.equal(runWallMs(context, now, now), 50000);
  context.longestRunMs = 5000;
  assert.equal(runWallMs(context, now, now), 30000);
  // Never past the hard deadline, and without one, what the budget has left.
  assert.equal(runWallMs({ deadline: now + 50000, hardDeadline: now + 20000, longestRunMs: 1 }, now, now), 20000);
  assert.equal(runWallMs({ deadline: now + 50000, hardDeadline: Infinity }, now, now), 50000);
});
