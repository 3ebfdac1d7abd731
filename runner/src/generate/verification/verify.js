'use strict';
// Checks the generated tests the way they will be used: run exactly as a run runs them
// (run-suite.js: bin/run.js, exit code and errors after the tests included). A test file with
// failures is first retried with a freshly loaded module per test (its tests may have disturbed
// each other through module state; each scenario ran on a fresh module); after that a failing
// test is dropped on its own, never its file or the suite with it. A run that fails as a whole
// (it ends early, say a timer fires after the last test) is repeated on halves of the tests
// until the tests that break it are found and dropped. The suite is final once a run passes
// completely and every kept test has passed at least twice (so flaky tests are caught), once of
// them in the rounds (the even ones) that run as another user on another machine
// (execution/other-environment.js: other uid, gid, pid, host, home and temporary folders), since
// users run the suite in their own CI; the coverage reported is the one that final run measured.

const { clock } = require('../budget-clock');
const path = require('node:path');
const { runSuite, testKey } = require('./run-suite');
const { suiteText } = require('./suite-text');

const MAX_ROUNDS = 6;
const MIN_WALL_MS = 30000;
// A round is not started with less wall time than this left before the hard deadline.
const MIN_ROUND_MS = 5000;
// What a run stopped at its wall limit, and the answer after it, need on a busy machine (a run
// allowed up to the hard deadline made the generator outlive its sandbox's wall limit).
const RUN_STOP_MS = 10000;

// Wall time left before the hard deadline (a Date.now() time; Infinity: none).
function hardLeft(context) {
  return context.hardDeadline - Date.now();
}

// The wall time a run may take: what the budget has left, at least MIN_WALL_MS, within the hard
// deadline. A package's suite may need more than MIN_WALL_MS a run on a busy machine, and a run
// cut short keeps nothing: until a run has completed, it may take all the time left before the
// hard deadline but RUN_STOP_MS; after that, twice the longest completed run (chai's took 42 s,
// and the next one, allowed 30 s, was cut). budgetNow: the budget clock's time; wallNow:
// Date.now()'s; context.longestRunMs: the longest completed run so far, if any.
function runWallMs(context, budgetNow, wallNow) {
  const left = context.hardDeadline - wallNow;
  const budgeted = Math.max(MIN_WALL_MS, context.deadline - budgetNow);
  if (!Number.isFinite(left)) return budgeted;
  const wanted = context.longestRunMs ? 2 * context.longestRunMs : left - RUN_STOP_MS;
  return Math.min(Math.max(budgeted, wanted), left);
}

// Runs the suites; returns run-suite's answer with the status of each case (undefined: no result).
// A prestarted runner (startRunner) of the same environment is used when one is left, else one is
// started unprimed. elsewhere: { home, tmp } to run in another user's environment, or null.
async function runCases(suites, context, label, elsewhere = null) {
  const { base, workDir, nodePath, prestarted } = context;
  const files = [...base, ...suites.map((suite) => ({ path: suite.testPath, content: suiteText(suite) }))];
  const index = prestarted.findIndex((candidate) => Boolean(candidate.elsewhere) === Boolean(elsewhere));
  const runner = index >= 0 ? prestarted.splice(index, 1)[0] : null;
  const dir = runner ? runner.dir : path.join(workDir, label);
  const started = Date.now();
  const result = await runSuite(dir, files, {
    wallMs: runWallMs(context, clock.now(), Date.now()),
    nodePath,
    prestarted: runner,
    elsewhere,
  });
  // A run that gave its tests' results completed: the next ones may take about as long.
  if (result.tests.size) context.longestRunMs = Math.max(context.longestRunMs || 0, Date.now() - started);
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

// The tests that make a run fail as a whole, found by running halves of `pairs` ({ suite, testCase }).
async function breakingTests(suites, pairs, context, log) {
  if (pairs.length <= 1) return pairs;
  const middle = Math.ceil(pairs.length / 2);
  const found = [];
  for (const half of [pairs.slice(0, middle), pairs.slice(middle)]) {
    if (clock.now() >= context.deadline || hardLeft(context) < MIN_ROUND_MS) {
      found.push(...half);
      continue;
    }
    const group = regroup(suites, half);
    const result = await runCases(group, context, `bisect-${context.runs++}`);
    if (failedAsAWhole(result, group)) found.push(...(await breakingTests(suites, half, context, log)));
    else found.push(...half.filter(({ suite, testCase }) => result.status(suite, testCase) !== 'passed'));
  }
  return found;
}

// What a run of `suites` runs: its test files, each test, whether modules load afresh per test.
function suitesKey(suites) {
  return JSON.stringify(
    suites.map((suite) => [suite.testPath, Boolean(suite.spec.isolated), suite.cases.map((testCase) => testCase.name)]),
  );
}

// suites: [{ testPath, spec, cases }]; sources: the job's files; config: the jest.config.js to add,
// or null when the sources bring their own; nodePath: the installed dependencies, if any;
// prestarted: runners started ahead (startRunner), used first, in order; the caller stops those
// left. elsewhere: { home, tmp }, the folders of the other environment the even rounds run in
// (null: every round runs here). hardDeadline: the Date.now() time by which verification must
// have ended whatever happens (the generator's sandbox ends it soon after). Returns { suites,
// coverage, files, rounds, dropped, cut }, with passing cases only; `dropped` says why tests were
// dropped when none is left. When the hard deadline comes before every kept test has passed
// twice, the suites of the last complete run that passed are returned with `cut` set: their
// tests passed once.
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
}) {
  const context = {
    base: config ? [...sources, config] : sources,
    workDir,
    deadline,
    hardDeadline,
    nodePath,
    runs: 0,
    prestarted: [...prestarted],
  };
  let lastPassing = null;
  let live = suites.filter((suite) => suite.cases.length);
  const passes = new Map();
  const passedElsewhere = new Set();
  const environmentOf = (round) => (elsewhere && round % 2 === 0 ? elsewhere : null);
  let dropped = null;
  // With a second prestarted runner, round 2 runs beside round 1 on the same tests; its result
  // counts only when round 1 left the suite as it was (the common case: every test passed).
  let early = null;
  for (let round = 1; round <= MAX_ROUNDS && live.length; round++) {
    if (hardLeft(context) < MIN_ROUND_MS) {
      log(`verify: the wall limit is near: stopping after round ${round - 1}`);
      if (lastPassing) return { ...lastPassing, rounds: round - 1, dropped: null, cut: true };
      break;
    }
    const started = Date.now();
    const key = suitesKey(live);
    const pending =
      early && early.key === key ? early.result : runCases(live, context, `round-${round}`, environmentOf(round));
    early =
      round === 1 && context.prestarted.length
        ? { key, result: runCases(live, context, 'round-2', environmentOf(2)) }
        : null;
    const result = await pending;
    if (failedAsAWhole(result, live)) {
      log(
        `verify: round ${round}: the run failed as a whole (${result.error.slice(0, 300)}); looking for the tests that cause it`,
      );
      dropped = result.error;
      const pairs = live.flatMap((suite) => suite.cases.map((testCase) => ({ suite, testCase })));
      const breaking = await breakingTests(live, pairs, context, log);
      log(`verify: dropping ${breaking.length} test(s) that break the run`);
      live = live
        .map((suite) => ({
          ...suite,
          cases: suite.cases.filter((testCase) => !breaking.some((pair) => pair.testCase === testCase)),
        }))
        .filter((suite) => suite.cases.length);
      continue;
    }
    let failures = 0;
    live = live
      .map((suite) => {
        const failing = suite.cases.filter((testCase) => result.status(suite, testCase) !== 'passed');
        failures += failing.length;
        if (failing.length && !suite.spec.isolated) {
          log(`verify: ${suite.testPath}: ${failing.length} failing test(s), retrying with a fresh module per test`);
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
          if (environmentOf(round)) passedElsewhere.add(testCase);
        }
        return { ...suite, cases: kept };
      })
      .filter((suite) => suite.cases.length);
    log(
      `verify: round ${round} (${Date.now() - started} ms, ${live.length} test files${environmentOf(round) ? ", another user's environment" : ''}): ${failures} failing test(s)${result.ok ? '' : `, ${result.error.slice(0, 300)}`}`,
    );
    for (const failure of (result.failures || []).slice(0, 3)) log(`verify:   failed: ${failure}`);
    const settled =
      result.ok &&
      failures === 0 &&
      live.every((suite) =>
        suite.cases.every((testCase) => passes.get(testCase) >= 2 && (!elsewhere || passedElsewhere.has(testCase))),
      );
    if (settled) return { suites: live, coverage: result.coverage, files: result.files, rounds: round, dropped: null };
    if (result.ok && failures === 0) lastPassing = { suites: live, coverage: result.coverage, files: result.files };
  }
  return {
    suites: [],
    coverage: null,
    files: [],
    rounds: MAX_ROUNDS,
    dropped:
      dropped ||
      (hardLeft(context) < MIN_ROUND_MS
        ? 'verification reached the wall limit before a run of the suite passed'
        : 'no run of the suite passed twice in a row'),
  };
}

module.exports = { verifySuites, runWallMs };
