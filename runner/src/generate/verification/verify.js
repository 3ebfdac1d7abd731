'use strict';
// Checks the generated tests the way they will be used: run exactly as a run runs them
// (run-suite.js: bin/run.js, exit code and errors after the tests included). A test file with
// failures is first retried with a freshly loaded module per test (its tests may have disturbed
// each other through module state; each scenario ran on a fresh module); after that a failing
// test is dropped on its own, never its file or the suite with it. A run that fails as a whole
// (it ends early, say a timer fires after the last test) is repeated on halves of the tests
// until the tests that break it are found and dropped. The suite is final once a run passes
// completely and every kept test has passed at least twice (so flaky tests are caught), once of
// them in the rounds (the odd ones) that run as another user on another machine
// (execution/other-environment.js: other uid, gid, pid, host, home and temporary folders), since
// users run the suite in their own CI; the coverage reported is the one that final run measured.
//
// A package's suite is verified in groups of test files (groupSuites), each on its own as above:
// a run of one group stays inside the sandbox's limits where a run of a whole large package did
// not, and a group that fails, or that the wall limit leaves unverified, loses only its own tests.
// The suite's coverage is the union of the groups' final runs (coverage.js). Runs of one
// environment take turns in one folder (a Lane), keeping Jest's cache between them, so the
// package's sources are transformed and instrumented once per environment, not once per run.

const path = require('node:path');
const { clock } = require('../budget-clock');
const { verificationWallMs, busyStretch } = require('../budget');
const { TRANSFORM_PATTERN } = require('../../transform');
const { runSuite, startRunner, testKey } = require('./run-suite');
const { suiteText } = require('./suite-text');
const { mergeCoverage } = require('./coverage');

const MAX_ROUNDS = 6;
const MIN_WALL_MS = 30000;
// How far a first run's cap stretches on a busy machine (budget.js, busyStretch): the cap only
// leaves a hanging run's suite the time to find out why, and at a load of 25 yup@1.3.3's first
// run, cut at threefold (36 s, with 80 s left), kept nothing.
const FIRST_RUN_STRETCH = 10;
// A run is not started with less wall time than this for it.
const MIN_ROUND_MS = 5000;
// What a run stopped at its wall limit needs to end on a busy machine (it is killed KILL_GRACE_MS
// after it, run-suite.js, then its folder is removed): no run is given the last RUN_STOP_MS before
// the hard deadline, which itself leaves the answer its own margin. (A run allowed up to the hard
// deadline made the generator outlive its sandbox's wall limit: nanoid's round 1 hung, and the
// search for the tests that broke it got the 8 s left. 10 s here cost graceful-fs the rounds
// after its search for the tests that close the runner's stdout.)
const RUN_STOP_MS = 5000;
// The most test files one verification run holds. A run of lodash's 80 test files took more than
// a minute on a busy machine; but every run also pays for the coverage of every source of the
// folder (9 s of lodash's run of one test file), so groups are not smaller than they must be.
const GROUP_TEST_FILES = 20;

// The suites in groups of at most `size` test files, as even as they can be, in order (the
// targets the entry points reach come first, and so are verified first).
function groupSuites(suites, size = GROUP_TEST_FILES) {
  const count = Math.ceil(suites.length / size);
  const groups = [];
  for (let index = 0, start = 0; index < count; index++) {
    const end = start + Math.ceil((suites.length - start) / (count - index));
    groups.push(suites.slice(start, end));
    start = end;
  }
  return groups;
}

// A folder in which the runs of one environment take turns, and the Jest cache they share
// (run-suite.js). Runners are started ahead in its folder: the first given (startLaneRunners),
// the next as soon as a run ends, while the other lane runs.
class Lane {
  constructor(workDir, name, elsewhere) {
    this.dir = path.join(workDir, name);
    this.cache = path.join(workDir, `${name}.jest-cache`);
    this.elsewhere = elsewhere;
    this.ready = []; // runners started ahead, used first, in order
    this.queue = Promise.resolve();
    this.spares = [];
  }

  // Runs `task(runner)` once the lane's earlier runs have ended; runner: one started ahead, or null.
  take(task) {
    const turn = this.queue.then(() => task(this.ready.shift() || null));
    this.queue = turn.catch(() => {});
    return turn;
  }

  // Starts the runner of the lane's next run now, in its folder, unless one is waiting.
  startSpare() {
    if (this.ready.length) return;
    const runner = startRunner(this.dir, this.elsewhere);
    this.spares.push(runner);
    this.ready.push(runner);
  }

  stop() {
    this.spares.forEach((runner) => runner.stop());
  }
}

// Lanes by environment: `here`, and `elsewhere` when the odd rounds run in another environment.
function laneDir(workDir, elsewhere) {
  return path.join(workDir, elsewhere ? 'elsewhere' : 'here');
}

// Runners for the first two runs, started in the folders of their lanes while generation still
// works (pipeline.js): one here, one in the other environment (elsewhere: { home, tmp }).
function startLaneRunners(workDir, elsewhere) {
  return [null, elsewhere].map((environment) => startRunner(laneDir(workDir, environment), environment));
}

// The wall time a run started now may still take: what is left before the hard deadline (a
// Date.now() time; Infinity: none) but RUN_STOP_MS.
function hardLeft(context, wallNow = Date.now()) {
  return context.hardDeadline - wallNow - RUN_STOP_MS;
}

// The wall time a run may take: what the budget has left, at least MIN_WALL_MS, within what the
// hard deadline leaves a run (hardLeft). A package's suite may need more than MIN_WALL_MS a run on
// a busy machine, and a run cut short keeps nothing: until a run has completed, it may take twice
// what budget.js expects a group's first runs to take (context.firstRunMs; without it, all the
// time left); after that, twice the longest completed run (chai's took 42 s, and the next one,
// allowed 30 s, was cut). A run that hangs then leaves time to find out why: nanoid's first run,
// given all the 44 s left, left none. budget.js's expectation is an idle machine's: on a busy one
// it is stretched by the share of the machine the job gets (`share`, the budget clock's, see
// busyStretch): at a load of 25 on 2 cores immer's and marked's first runs, cut at twice the idle
// figure, then cut again with a fresh module per test and again in halves, kept no test.
// budgetNow: the budget clock's time; wallNow: Date.now()'s; context.longestRunMs: the longest
// completed run so far, if any (measured at the load of the moment, it is not stretched).
function runWallMs(context, budgetNow, wallNow, share = clock.share) {
  const left = hardLeft(context, wallNow);
  const budgeted = Math.max(MIN_WALL_MS, context.deadline - budgetNow);
  if (!Number.isFinite(left)) return budgeted;
  const wanted = context.longestRunMs
    ? 2 * context.longestRunMs
    : 2 * busyStretch(share, FIRST_RUN_STRETCH) * (context.firstRunMs ?? Infinity);
  return Math.min(Math.max(budgeted, wanted), left);
}

// The wall time budget.js expects the first runs of a group of `testFiles` test files to take, over
// `sources`: the fixed start, every source instrumented, the test files.
function firstRunMs(testFiles, sources) {
  const code = new RegExp(TRANSFORM_PATTERN);
  const bytes = sources
    .filter((file) => code.test(file.path))
    .reduce((sum, file) => sum + Buffer.byteLength(file.content), 0);
  return verificationWallMs(testFiles, testFiles, bytes);
}

// Runs the suites on a lane (its environment: here, or another user's); returns run-suite's answer
// with the status of each case (undefined: no result). The lane's runner started ahead is used
// when there is one, else one is started unprimed.
async function runCases(suites, context, lane) {
  const { base, nodePath } = context;
  const files = [...base, ...suites.map((suite) => ({ path: suite.testPath, content: suiteText(suite) }))];
  const result = await lane.take(async (runner) => {
    const started = Date.now();
    const wallMs = runWallMs(context, clock.now(), Date.now());
    const ran = await runSuite(runner ? runner.dir : lane.dir, files, {
      wallMs,
      nodePath,
      prestarted: runner,
      elsewhere: lane.elsewhere,
      cache: lane.cache,
    });
    // A run that gave its tests' results completed: the next ones may take about as long.
    if (ran.tests.size) {
      context.longestRunMs = Math.max(context.longestRunMs || 0, Date.now() - started);
      context.lastRunMs = Date.now() - started;
    }
    context.runs++;
    if (context.spares && hardLeft(context) >= MIN_ROUND_MS) lane.startSpare();
    return { ...ran, wallMs };
  });
  const status = (suite, testCase) => {
    const tests = result.tests.get(suite.testPath);
    return tests && tests.get(testKey(testCase.describe, testCase.name));
  };
  return { ...result, status };
}

// A run that failed as a whole: it gave no results, or every test file ran and passed, yet the
// run did not complete. (A test file missing from the results failed to load: its tests fail.)
function failedAsAWhole(result, suites) {
  if (result.ok) return false;
  if (!result.tests.size) return true;
  return suites.every(
    (suite) =>
      result.tests.has(suite.testPath) && suite.cases.every((testCase) => result.status(suite, testCase) === 'passed'),
  );
}

function regroup(suites, pairs) {
  return suites
    .map((suite) => ({
      ...suite,
      cases: suite.cases.filter((testCase) => pairs.some((pair) => pair.testCase === testCase)),
    }))
    .filter((suite) => suite.cases.length);
}

// Whether another run may look for the tests that break a run. Without a hard deadline, while the
// budget lasts; with one, also past the budget, while the wall time it leaves runs holds a round
// for each group still to verify (about one run: its rounds 1 and 2 run side by side), so that
// one group's search for a culprit (a callback throwing after the tests end) does not sink the
// group, nor the groups after it.
function mayBisect(context) {
  if (!Number.isFinite(context.hardDeadline)) return clock.now() < context.deadline;
  return hardLeft(context) >= MIN_ROUND_MS + laterGroupsMs(context);
}

// The wall time the groups after the current one need at least: a run each, as long as the last
// completed run (the first runs of a lane, which transform every source, take longer).
function laterGroupsMs(context) {
  return context.groupsLeft * (context.lastRunMs || MIN_ROUND_MS);
}

// The tests that make a run fail as a whole, found by running halves of `pairs` ({ suite, testCase }).
async function breakingTests(suites, pairs, context, log) {
  if (pairs.length <= 1) return pairs;
  const middle = Math.ceil(pairs.length / 2);
  const found = [];
  for (const half of [pairs.slice(0, middle), pairs.slice(middle)]) {
    if (!mayBisect(context)) {
      found.push(...half);
      continue;
    }
    const group = regroup(suites, half);
    const result = await runCases(group, context, context.lanes.here);
    // A half cut by the time left proves nothing: its tests stay, and the next round says more.
    if (failedAsAWhole(result, group) && !blamesTests(result, context)) continue;
    if (failedAsAWhole(result, group)) found.push(...(await breakingTests(suites, half, context, log)));
    else found.push(...half.filter(({ suite, testCase }) => result.status(suite, testCase) !== 'passed'));
  }
  return found;
}

// Whether a run stopped at its wall limit says something about its tests: only when it was given
// twice the longest run that completed (a test then hangs). One given less was cut by the time
// left before the hard deadline on a slow machine (marked's 13 test files took 57 s on a busy
// machine; the next round had 17 s): halves of it would be cut too, and each would cost later
// groups their time. (A run before any completed one has at least MIN_WALL_MS, or the time left.)
function blamesTests(result, context) {
  if (!hung(result)) return true;
  return !context.longestRunMs || result.wallMs >= 2 * context.longestRunMs;
}

// Whether a run was stopped at its wall limit (rather than ending early by itself).
function hung(result) {
  return String(result.error).startsWith('wall_time_limit');
}

// What a run of `suites` runs: its test files, each test, whether modules load afresh per test.
function suitesKey(suites) {
  return JSON.stringify(
    suites.map((suite) => [suite.testPath, Boolean(suite.spec.isolated), suite.cases.map((testCase) => testCase.name)]),
  );
}

// Verifies one group of suites (all of them for a small package) in rounds, as the file's comment
// says. Returns { suites, coverage, files, coverageData, rounds, dropped, cut }, with passing
// cases only (see verifySuites).
async function verifyGroup(suites, context, log) {
  const { lanes } = context;
  let lastPassing = null;
  let live = suites.filter((suite) => suite.cases.length);
  const passes = new Map();
  const passedElsewhere = new Set();
  // The odd rounds run in the other environment: a group the wall limit cuts after one round keeps
  // tests that passed there, as another user with another Jest's mocks (immer's kept suite asserted
  // Jest 30.5's `whenCalledWith` after a cut round 1 here).
  const laneOf = (round) => (lanes.elsewhere && round % 2 === 1 ? lanes.elsewhere : lanes.here);
  let dropped = null;
  // Round 2 runs beside round 1 on the same tests, on the other lane; its result counts only when
  // round 1 left the suite as it was (the common case: every test passed).
  let early = null;
  for (let round = 1; round <= MAX_ROUNDS && live.length; round++) {
    // Rounds after the first pair leave the groups still to verify their time (laterGroupsMs).
    if (hardLeft(context) < MIN_ROUND_MS + (round > 2 ? laterGroupsMs(context) : 0)) {
      log(`the wall limit is near: stopping after round ${round - 1}`);
      if (lastPassing) return { ...lastPassing, rounds: round - 1, dropped: null, cut: true };
      break;
    }
    const started = Date.now();
    const key = suitesKey(live);
    const pending = early && early.key === key ? early.result : runCases(live, context, laneOf(round));
    early = round === 1 && laneOf(2) !== laneOf(1) ? { key, result: runCases(live, context, laneOf(2)) } : null;
    const result = await pending;
    if (failedAsAWhole(result, live) && !blamesTests(result, context)) {
      log(
        `round ${round}: the run reached its wall limit (${result.wallMs} ms, less than twice the longest run): stopping, no test is blamed`,
      );
      if (lastPassing) return { ...lastPassing, rounds: round - 1, dropped: null, cut: true };
      dropped = 'verification reached the wall limit before a run of the suite passed';
      break;
    }
    // A run that never ended, of tests that each ended when the search ran them on a fresh
    // module: a test left the module in a state that makes a later one loop (nanoid@3.3.7's
    // customAlphabet('')() after nanoid() had filled its pool). One run with a fresh module per
    // test costs less than halving the suite, a killed run at a time.
    if (failedAsAWhole(result, live) && hung(result) && live.some((suite) => !suite.spec.isolated)) {
      log(`round ${round}: the run did not end (${result.error.slice(0, 300)}); retrying with a fresh module per test`);
      live = live.map((suite) => ({ ...suite, spec: { ...suite.spec, isolated: true } }));
      continue;
    }
    if (failedAsAWhole(result, live)) {
      log(
        `round ${round}: the run failed as a whole (${result.error.slice(0, 300)}); looking for the tests that cause it`,
      );
      dropped = result.error;
      const pairs = live.flatMap((suite) => suite.cases.map((testCase) => ({ suite, testCase })));
      const breaking = await breakingTests(live, pairs, context, log);
      log(`dropping ${breaking.length} test(s) that break the run`);
      live = live
        .map((suite) => ({
          ...suite,
          cases: suite.cases.filter((testCase) => !breaking.some((pair) => pair.testCase === testCase)),
        }))
        .filter((suite) => suite.cases.length);
      continue;
    }
    let failures = 0;
    const elsewhereRound = Boolean(laneOf(round).elsewhere);
    live = live
      .map((suite) => {
        const failing = suite.cases.filter((testCase) => result.status(suite, testCase) !== 'passed');
        failures += failing.length;
        if (failing.length && !suite.spec.isolated) {
          log(`${suite.testPath}: ${failing.length} failing test(s), retrying with a fresh module per test`);
          suite.cases.forEach((testCase) => passes.delete(testCase));
          return { ...suite, spec: { ...suite.spec, isolated: true } };
        }
        if (failing.length)
          dropped = `tests failed when run again: ${failing
            .map((testCase) => testCase.name)
            .slice(0, 3)
            .join('; ')}`;
        const kept = suite.cases.filter((testCase) => !failing.includes(testCase));
        for (const testCase of kept) {
          passes.set(testCase, (passes.get(testCase) || 0) + 1);
          if (elsewhereRound) passedElsewhere.add(testCase);
        }
        return { ...suite, cases: kept };
      })
      .filter((suite) => suite.cases.length);
    log(
      `round ${round} (${Date.now() - started} ms, ${live.length} test files${elsewhereRound ? ", another user's environment" : ''}): ${failures} failing test(s)${result.ok ? '' : `, ${result.error.slice(0, 300)}`}`,
    );
    for (const failure of (result.failures || []).slice(0, 3)) log(`  failed: ${failure}`);
    const passing = result.ok && failures === 0;
    const measured = {
      suites: live,
      coverage: result.coverage,
      files: result.files,
      coverageData: result.coverageData,
    };
    const settled =
      passing &&
      live.every((suite) =>
        suite.cases.every(
          (testCase) => passes.get(testCase) >= 2 && (!lanes.elsewhere || passedElsewhere.has(testCase)),
        ),
      );
    if (settled) return { ...measured, rounds: round, dropped: null };
    if (passing) lastPassing = measured;
  }
  return {
    suites: [],
    coverage: null,
    files: [],
    coverageData: null,
    rounds: MAX_ROUNDS,
    dropped:
      dropped ||
      (hardLeft(context) < MIN_ROUND_MS
        ? 'verification reached the wall limit before a run of the suite passed'
        : 'no run of the suite passed twice in a row'),
  };
}

// suites: [{ testPath, spec, cases }]; sources: the job's files; config: the jest.config.js to add,
// or null when the sources bring their own; nodePath: the installed dependencies, if any;
// prestarted: runners started ahead (startLaneRunners, or startRunner in a folder of their own),
// each used first by the lane of its environment; the caller stops those left. elsewhere:
// { home, tmp }, the folders of the other environment the odd rounds run in (null: every round
// runs here). hardDeadline: the Date.now() time by which verification must have ended whatever
// happens (the generator's sandbox ends it soon after). groupSize: the most test files a run
// holds. Returns { suites, coverage, files, rounds, dropped, reasons, cut, groups }, with passing
// cases only; `dropped` says why tests were dropped when none is left, `reasons` (a Map) why each
// test file that lost all its tests lost them. When the hard deadline comes before every kept test
// of a group has passed twice, the suites of the group's last complete run that passed are kept
// and `cut` counts such groups: their tests passed once. A group the hard deadline leaves no time
// for loses its tests.
async function verifySuites({
  workDir,
  sources,
  config,
  suites,
  deadline,
  nodePath,
  log,
  prestarted = [],
  elsewhere = null,
  hardDeadline = Infinity,
  groupSize = GROUP_TEST_FILES,
}) {
  const lanes = {
    here: new Lane(workDir, 'here', null),
    elsewhere: elsewhere && new Lane(workDir, 'elsewhere', elsewhere),
  };
  for (const runner of prestarted)
    (runner.elsewhere && lanes.elsewhere ? lanes.elsewhere : lanes.here).ready.push(runner);
  const groups = groupSuites(
    suites.filter((suite) => suite.cases.length),
    groupSize,
  );
  const context = {
    base: config ? [...sources, config] : sources,
    deadline,
    hardDeadline,
    nodePath,
    runs: 0,
    groupsLeft: 0,
    lanes,
    // Runners are started ahead for the next runs only while groups are left after the current one.
    spares: false,
  };
  const verified = [];
  try {
    for (const [index, group] of groups.entries()) {
      const label = groups.length > 1 ? `verify: group ${index + 1}/${groups.length}: ` : 'verify: ';
      if (hardLeft(context) < MIN_ROUND_MS) {
        log(`${label}the wall limit is near: its ${group.length} test file(s) are not verified`);
        verified.push({
          suites: [],
          dropped: 'verification reached the wall limit before its group of test files ran',
        });
        continue;
      }
      context.spares = index < groups.length - 1;
      context.groupsLeft = groups.length - index - 1;
      context.firstRunMs = firstRunMs(group.length, sources);
      verified.push(await verifyGroup(group, context, (line) => log(label + line)));
    }
  } finally {
    Object.values(lanes).forEach((lane) => lane && lane.stop());
  }
  const kept = verified.filter((result) => result.suites.length);
  const reasons = new Map();
  groups.forEach((group, index) => {
    const keptPaths = new Set(verified[index].suites.map((suite) => suite.testPath));
    for (const suite of group)
      if (!keptPaths.has(suite.testPath))
        reasons.set(suite.testPath, verified[index].dropped || 'no run of the suite passed twice in a row');
  });
  // One group's run measured the whole suite's coverage; groups' runs are merged.
  let measured = { coverage: null, files: [] };
  if (kept.length === 1 || (kept.length && kept.some((result) => !result.coverageData)))
    measured = { coverage: kept[0].coverage, files: kept[0].files };
  else if (kept.length) measured = mergeCoverage(kept.map((result) => result.coverageData));
  return {
    suites: kept.flatMap((result) => result.suites),
    ...measured,
    rounds: Math.max(0, ...verified.map((result) => result.rounds || 0)),
    dropped: kept.length ? null : (verified.find((result) => result.dropped) || {}).dropped || null,
    reasons,
    cut: verified.filter((result) => result.cut).length,
    groups: groups.length,
  };
}

module.exports = { verifySuites, runWallMs, blamesTests, groupSuites, startLaneRunners, GROUP_TEST_FILES };
