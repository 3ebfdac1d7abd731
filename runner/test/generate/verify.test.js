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

// verifySuites on one suite of `cases` over SOURCE (with `options` beside, or in place of SOURCE
// and the deadline): what it verified and the lines it logged.
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
  const { startLaneRunners } = require('../../src/generate/verification/verify');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  const elsewhere = { home: path.join(workDir, 'elsewhere-home'), tmp: path.join(workDir, 'elsewhere-tmp') };
  Object.values(elsewhere).forEach((dir) => fs.mkdirSync(dir));
  const prestart = (label) => {
    fs.mkdirSync(path.join(workDir, label));
    return startLaneRunners(path.join(workDir, label), elsewhere);
  };
  const runners = [];
  try {
    // Every test passes: both runs count, the suite is settled after the pair.
    const passing = prestart('passing');
    runners.push(...passing);
    const { verified: settled } = await verify(workDir, [testCase('adds', ['expect(m.add(1, 2)).toBe(3);'])], {
      prestarted: passing,
      elsewhere,
      workDir: path.join(workDir, 'passing'),
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
      { prestarted: failing, elsewhere, workDir: path.join(workDir, 'failing') },
    );
    assert.deepEqual(keptNames(verified), ['adds'], log);
    assert.ok(verified.rounds > 2, log);
  } finally {
    runners.forEach((runner) => runner.stop());
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test("the odd rounds run as another user on another machine, with another Jest's mocks and globals: a test asserting the sandbox's uid, host or home, Jest 30's own mock members or its Symbol.dispose, is dropped, the rest kept", async () => {
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
      // Jest 30's mocks only (Jest 29's have neither): a user's Jest 29 would fail these.
      testCase('mock symbols', [
        "expect(Object.getOwnPropertySymbols(jest.fn()).map(String)).toEqual(['Symbol(nodejs.dispose)']);",
      ]),
      testCase('mock keys', ["expect(Object.keys(jest.fn())).toContain('whenCalledWith');"]),
      testCase('mock members of every Jest', ["expect(Object.keys(jest.fn())).toContain('mockReturnValue');"]),
      // The source text of a mock's members differs between Jest versions.
      testCase('mock member text', ['expect(String(jest.fn().mockReturnValue)).toMatch(/value/);']),
      testCase('mock members work', [
        'const fn = jest.fn().mockReturnValue(3);',
        'expect(fn.mockReturnThis).toEqual(expect.any(Function));',
        'expect(fn()).toBe(3);',
        'fn.mockClear();',
        'expect(fn).not.toHaveBeenCalled();',
      ]),
      // Jest 30 gives test files Node's Symbol.dispose, Jest 29 does not.
      testCase('dispose symbol', ["expect(typeof Symbol.dispose).toBe('symbol');"]),
    ];
    const { verified, log } = await verify(workDir, cases, { elsewhere });
    assert.deepEqual(
      keptNames(verified),
      ['adds', 'uid by type', 'mock members of every Jest', 'mock members work'],
      log,
    );
    assert.match(log, /round 1 .*another user's environment/);
    assert.doesNotMatch(log, /round 2 .*another user's environment/);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test('a run may take all the wall time left but the time to stop until one has completed, then twice the longest', () => {
  const { runWallMs } = require('../../src/generate/verification/verify');
  const now = 1000000; // budget time and wall time alike here
  // The budget ended 5 s ago; 70 s are left before the hard deadline, 5 s of them to stop.
  const context = { deadline: now - 5000, hardDeadline: now + 70000 };
  assert.equal(runWallMs(context, now, now), 65000);
  // A run completed in 25 s: the next may take 50 s, and never less than 30 s.
  context.longestRunMs = 25000;
  assert.equal(runWallMs(context, now, now), 50000);
  context.longestRunMs = 5000;
  assert.equal(runWallMs(context, now, now), 30000);
  // Before a run completed, twice what the group's first runs should take when that is known.
  assert.equal(runWallMs({ deadline: now - 5000, hardDeadline: now + 70000, firstRunMs: 20000 }, now, now), 40000);
  assert.equal(runWallMs({ deadline: now - 5000, hardDeadline: now + 70000, firstRunMs: 5000 }, now, now), 30000);
  // On a busy machine, that expectation stretches by the share the job gets (at most tenfold);
  // a completed run's time, measured at that load, does not.
  const busy = { deadline: now - 5000, hardDeadline: now + 170000, firstRunMs: 20000 };
  assert.equal(runWallMs(busy, now, now, 0.5), 80000);
  assert.equal(runWallMs({ ...busy, firstRunMs: 5000 }, now, now, 0.01), 100000);
  assert.equal(runWallMs({ ...busy, longestRunMs: 25000 }, now, now, 0.25), 50000);
  // Never into the last 5 s before the hard deadline (a run killed at its limit needs them to
  // end), and without one, what the budget has left.
  assert.equal(runWallMs({ deadline: now + 50000, hardDeadline: now + 20000, longestRunMs: 1 }, now, now), 15000);
  assert.equal(runWallMs({ deadline: now + 50000, hardDeadline: Infinity }, now, now), 50000);
});

test('a suite whose runs hang ends its verification before the hard deadline, with the time to answer left', async () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  try {
    // Two tests that block the event loop: round 1 is killed at its wall limit, and the search
    // for the tests that break it must not take a run into the last seconds (nanoid@3.3.7: an
    // endless loop of customAlphabet('') once another test had filled its pool).
    const blocking = ['const end = Date.now() + 120000;', 'while (Date.now() < end);'];
    const hardDeadline = Date.now() + 16000;
    const { verified, log } = await verify(workDir, [testCase('hangs', blocking), testCase('hangs too', blocking)], {
      hardDeadline,
    });
    assert.deepEqual(keptNames(verified), [], log);
    assert.ok(Date.now() < hardDeadline, `${Date.now() - hardDeadline} ms past the hard deadline\n${log}`);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test('a run that never ends because one test left the module looping for the next is run again with a fresh module per test, and both are kept', async () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  try {
    // Each test ends on a fresh module, as the search ran it; in one module, 'fills' makes 'spins' loop.
    const source = {
      path: 'm.js',
      content: `let filled = false;
exports.fill = () => { filled = true; return 'filled'; };
exports.spin = () => { while (filled); throw new Error('empty'); };
`,
    };
    const cases = [
      testCase('fills', ["expect(m.fill()).toBe('filled');"]),
      testCase('spins', ["expect(() => m.spin()).toThrow('empty');"]),
    ];
    const { verified, log } = await verify(workDir, cases, { sources: [source], deadline: Date.now() });
    assert.deepEqual(keptNames(verified), ['fills', 'spins'], log);
    assert.match(log, /round 1: the run did not end .*retrying with a fresh module per test/);
    assert.equal(verified.suites[0].spec.isolated, true);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test('a run stopped at a wall limit shorter than twice the longest run blames no test; one given that long does', () => {
  const { blamesTests } = require('../../src/generate/verification/verify');
  const cut = {
    ok: false,
    error: 'wall_time_limit: wall time limit exceeded: the run took longer than 17198 ms',
    wallMs: 17198,
  };
  // marked on a busy machine: round 1 took 57 s, round 2 had the 17 s left before the hard deadline.
  assert.equal(blamesTests(cut, { longestRunMs: 57000 }), false);
  assert.equal(blamesTests({ ...cut, wallMs: 114000 }, { longestRunMs: 57000 }), true, 'a hang');
  assert.equal(blamesTests(cut, {}), true, 'before any run completed, its MIN_WALL_MS at least was enough');
  assert.equal(
    blamesTests({ ok: false, error: 'unexpected_exit: the run ended early', wallMs: 1 }, { longestRunMs: 57000 }),
    true,
  );
});

test('suites are verified in groups of test files, as even as they can be, in order', () => {
  const { groupSuites } = require('../../src/generate/verification/verify');
  const sizes = (count, size) => groupSuites([...Array(count).keys()], size).map((group) => group.length);
  assert.deepEqual(sizes(5, 8), [5]);
  assert.deepEqual(sizes(8, 8), [8]);
  assert.deepEqual(sizes(9, 8), [5, 4]);
  assert.deepEqual(sizes(80, 8), Array(10).fill(8));
  assert.deepEqual(sizes(81, 8), [8, 8, 8, 8, 7, 7, 7, 7, 7, 7, 7]);
  assert.deepEqual(groupSuites([1, 2, 3], 2), [[1, 2], [3]]);
  assert.deepEqual(sizes(0, 8), []);
});

// Three modules, a test file each: a.js and b.js get passing tests, c.js a test file whose every
// test fails the run after the tests (a timer calls an undefined callback).
const GROUP_SOURCES = ['a', 'b', 'c'].map((name) => ({
  path: `${name}.js`,
  content: `exports.twice = (n) => { if (n > 10) return 'big'; return n * 2; };
exports.later = (callback, ms) => { setTimeout(() => callback(), ms); return 'scheduled'; };
`,
}));

function groupSuite(name, cases) {
  return {
    testPath: `__tests__/${name}.test.js`,
    spec: { sourcePath: `${name}.js`, request: `../${name}`, esm: false, bindings: [{ name: 'm', from: 'module' }] },
    cases,
  };
}

function groupedSuites() {
  return [
    groupSuite('a', [testCase('twice', ['expect(m.twice(2)).toBe(4);'])]),
    groupSuite('b', [testCase('big', ["expect(m.twice(11)).toBe('big');"])]),
    groupSuite('c', [
      testCase('schedules', ["expect(m.later(undefined, 0)).toBe('scheduled');"]),
      testCase('schedules again', ["expect(m.later(undefined, 0)).toBe('scheduled');"]),
    ]),
  ];
}

async function verifyGrouped(workDir, options) {
  const logs = [];
  const verified = await verifySuites({
    workDir,
    sources: GROUP_SOURCES,
    config: jestConfigFile({ esm: false }),
    suites: groupedSuites(),
    deadline: Date.now() + 60000,
    log: (line) => logs.push(line),
    ...options,
  });
  return { verified, log: logs.join('\n') };
}

test("in groups of test files, a group that breaks its runs loses only its own tests; the coverage is the union of the groups' runs, as one run measures it", async () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  try {
    // One test file a group: c's group fails as a whole (no test of it is run twice alike), a's
    // and b's are kept.
    const { verified: grouped, log } = await verifyGrouped(path.join(workDir, 'grouped'), { groupSize: 1 });
    assert.equal(grouped.groups, 3);
    assert.deepEqual(keptNames(grouped), ['twice', 'big'], log);
    assert.match(log, /verify: group 3\/3: round 1: the run failed as a whole/);
    assert.match(grouped.reasons.get('__tests__/c.test.js'), /the run ended early/);
    assert.equal(grouped.reasons.has('__tests__/a.test.js'), false);
    // The same kept tests verified as one group measure the same coverage in one run.
    const kept = groupedSuites().slice(0, 2);
    const { verified: whole } = await verifyGrouped(path.join(workDir, 'whole'), { suites: kept });
    assert.equal(whole.groups, 1);
    assert.deepEqual(grouped.coverage, whole.coverage);
    const byPath = (files) => Object.fromEntries(files.map((file) => [file.path, file.coverage]));
    assert.deepEqual(byPath(grouped.files), byPath(whole.files));
    // a.js's group covered its `return n * 2`, b.js's its `return 'big'`; c.js counts, at 0%.
    assert.equal(byPath(grouped.files)['a.js'].functions, 33.33); // twice, not later nor its timer's callback
    assert.equal(byPath(grouped.files)['b.js'].functions, 33.33);
    assert.equal(byPath(grouped.files)['c.js'].statements, 0);
    assert.ok(grouped.coverage.statements > 0 && grouped.coverage.statements < 100);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test('a group the wall limit leaves no time for loses its tests and says why', async () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  try {
    const { verified, log } = await verifyGrouped(workDir, { groupSize: 2, hardDeadline: Date.now() + 1000 });
    assert.deepEqual(keptNames(verified), [], log);
    assert.equal(verified.groups, 2);
    for (const name of ['a', 'b', 'c'])
      assert.match(verified.reasons.get(`__tests__/${name}.test.js`), /wall limit before its group of test files ran/);
    assert.deepEqual(verified.coverage, null);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

test("runs with a lane's cache folder lend it Jest's transforms: a run in the same folder transforms nothing again", async () => {
  const { runSuite } = require('../../src/generate/verification/run-suite');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  const cache = path.join(workDir, 'lane.jest-cache');
  const files = [
    ...GROUP_SOURCES,
    jestConfigFile({ esm: false }),
    { path: '__tests__/a.test.js', content: "test('twice', () => { expect(require('../a').twice(2)).toBe(4); });\n" },
  ];
  const cachedFiles = () =>
    fs.readdirSync(cache, { recursive: true }).filter((entry) => fs.statSync(path.join(cache, entry)).isFile()).length;
  try {
    const first = await runSuite(path.join(workDir, 'lane'), files, { wallMs: 60000, cache });
    assert.equal(first.ok, true, first.error);
    assert.equal(fs.existsSync(path.join(workDir, 'lane')), false);
    const afterFirst = cachedFiles();
    assert.ok(afterFirst >= 4, `${afterFirst} files in the cache`); // three sources and the test file
    const second = await runSuite(path.join(workDir, 'lane'), files, { wallMs: 60000, cache });
    assert.equal(second.ok, true, second.error);
    assert.equal(cachedFiles(), afterFirst);
    assert.deepEqual(second.coverage, first.coverage);
    assert.deepEqual(Object.keys(second.coverageData).sort(), ['a.js', 'b.js', 'c.js']);
    // Another folder's transforms hold its path: they are made again.
    const elsewhere = await runSuite(path.join(workDir, 'other'), files, { wallMs: 60000, cache });
    assert.equal(elsewhere.ok, true, elsewhere.error);
    assert.ok(cachedFiles() > afterFirst);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});

// vouchd's job says the run path's memory limit (runLimits); verification's runs are held to it,
// not to the generator's larger one: a suite that needs more than a run has is not kept.
test("verification's runs are held to the run path's memory limit when the job gives it", async (t) => {
  const { runSuite, holdRunsTo } = require('../../src/generate/verification/run-suite');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  t.after(() => {
    holdRunsTo(undefined);
    fs.rmSync(workDir, { recursive: true, force: true });
  });
  const files = [
    SOURCE,
    jestConfigFile({ esm: false }),
    {
      path: '__tests__/big.test.js',
      content: "test('holds 400 MB', () => { expect(Buffer.alloc(400 * 1024 * 1024, 1)[0]).toBe(1); });\n",
    },
  ];
  const unlimited = await runSuite(path.join(workDir, 'a'), files, { wallMs: 60000 });
  assert.equal(unlimited.ok, true, unlimited.error);
  holdRunsTo({ memoryMb: 384, nodeOptions: '--max-old-space-size=288' });
  const held = await runSuite(path.join(workDir, 'b'), files, { wallMs: 60000 });
  assert.equal(held.ok, false);
  assert.match(held.failures.join('\n'), /Array buffer allocation failed/);
  assert.match(held.error, /^memory_limit: /);
});

test('a run whose event loop is blocked past its wall limit is killed soon after, as a wall_time_limit', async () => {
  const { runSuite } = require('../../src/generate/verification/run-suite');
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-verify-test-'));
  const files = [
    SOURCE,
    jestConfigFile({ esm: false }),
    // run.js's own wall timer cannot fire while this test holds the event loop.
    {
      path: '__tests__/m.test.js',
      content: "test('blocks', () => { const end = Date.now() + 60000; while (Date.now() < end); });\n",
    },
  ];
  try {
    const started = Date.now();
    const ran = await runSuite(path.join(workDir, 'lane'), files, { wallMs: 3000 });
    assert.equal(ran.ok, false);
    assert.match(ran.error, /^wall_time_limit: the run did not end within 3000 ms and was killed/);
    assert.ok(Date.now() - started < 30000, `${Date.now() - started} ms`);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
});
