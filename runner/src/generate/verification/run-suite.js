'use strict';
// Runs sources and generated tests exactly as `POST /v1/tests/run` does: bin/run.js in a fresh
// work folder (src/run: Jest in band, with coverage over every submitted source, no --forceExit).
// A test file that fails to load, or a run that ends early (a timer firing after the last test
// calls something undefined, process.exit), fails here as it would there.

const fs = require('node:fs');
const path = require('node:path');
const { WarmRunner } = require('../../run/client');
const { readRunCoverage } = require('./coverage');

// Where bin/run.js keeps Jest's cache (transforms) in its work folder.
const JEST_CACHE = '.jest-cache';

// How long after its wall limit a run that has not answered is killed.
const KILL_GRACE_MS = 2000;

const OTHER_ENVIRONMENT_PRELOAD = path.join(__dirname, 'other-environment-preload.js');

// The run path's memory limit ({ memoryMb, nodeOptions }, the job's runLimits), which every run
// started here is held to; null: the generator's own, which its runs inherit.
let runMemory = null;

// Holds the runs started from now on to the run path's memory limit (`limits`: the job's
// runLimits, or undefined to leave them the generator's). A suite verified with more memory than
// a run has could pass here and fail there: runs of a large package's suite, given the
// generator's 2 GiB, kept tests whose run then exceeded the run path's 1 GiB.
function holdRunsTo(limits) {
  runMemory = limits ?? null;
}

// How run.js starts: as here, or, given `elsewhere` ({ home, tmp }), as another user on another
// machine (execution/other-environment.js, entered before Jest loads); within the run path's
// memory limit when the job gave it (holdRunsTo).
function runnerStart(dir, runArgs, elsewhere) {
  const memory = runMemory;
  if (!elsewhere) return { workdir: dir, runArgs, memory };
  const env = { ...process.env, VOUCH_OTHER_HOME: elsewhere.home, VOUCH_OTHER_TMP: elsewhere.tmp };
  return { workdir: dir, runArgs, nodeArgs: ['--require', OTHER_ENVIRONMENT_PRELOAD], env, memory };
}

function testKey(describe, name) {
  return `${describe} › ${name}`;
}

// Moves Jest's cache folder `from` to `to` when there is one (a rename: both are in the job's
// temporary folder), replacing what `to` held.
function moveCache(from, to) {
  if (!fs.existsSync(from)) return;
  fs.rmSync(to, { recursive: true, force: true });
  fs.renameSync(from, to);
}

// Returns { ok, tests: Map(file -> Map(key -> status)), coverage, files, coverageData, error }. `ok`
// is false when the run could not complete (`error` says why); `tests` then holds what did run, if
// anything. coverageData: the run's istanbul data by relative paths (coverage.js), for merging.
// files: [{ path, content }] for the folder; dir: a folder that does not exist yet (or the
// prestarted runner's); nodePath: the installed dependencies (a run's `nodePath`), if any.
// prestarted: a runner from startRunner() to use (its folder is `dir`), or null to start one
// unprimed; elsewhere: { home, tmp } to start it in another user's environment.
// cache: a folder holding Jest's cache between runs, lent to this run and taken back after it:
// Babel's transforms with coverage of every source, which a package's runs otherwise repeat.
// They are found again only by a run in a folder of the same path (the keys and the instrumented
// code hold it).
async function runSuite(dir, files, { wallMs, nodePath, prestarted = null, elsewhere = null, cache = null }) {
  fs.mkdirSync(dir, { recursive: true });
  if (cache) moveCache(cache, path.join(dir, JEST_CACHE));
  let outcome;
  let coverageData = null;
  let killedAtMs = null;
  try {
    const runner = prestarted
      ? await prestarted.ready
      : await WarmRunner.start(runnerStart(dir, ['--prime-rounds', '0'], elsewhere));
    const runWallMs = Math.max(1000, Math.round(wallMs));
    // run.js keeps to wallMs with a timer, which code that blocks its event loop (a test that
    // never returns, Babel instrumenting a 500 kB file on a busy machine) holds up: the run is
    // killed soon after, so that verification keeps to its own deadline.
    const kill = setTimeout(() => {
      killedAtMs = runWallMs;
      runner.child.kill('SIGKILL');
    }, runWallMs + KILL_GRACE_MS);
    try {
      outcome = await runner.run({ files, wallMs: runWallMs, ...(nodePath ? { nodePath } : {}) });
    } finally {
      clearTimeout(kill);
    }
    if (outcome.result && outcome.result.ok) coverageData = readRunCoverage(dir);
  } catch (error) {
    return { ok: false, tests: new Map(), error: `the runner did not start: ${error.message.slice(0, 500)}` };
  } finally {
    if (cache) moveCache(path.join(dir, JEST_CACHE), cache);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const { result } = outcome;
  if (!result && killedAtMs !== null)
    return {
      ok: false,
      tests: new Map(),
      error: `wall_time_limit: the run did not end within ${killedAtMs} ms and was killed`,
    };
  if (!result) return { ok: false, tests: new Map(), error: `the run gave no result: ${outcome.stderr.slice(-1000)}` };
  const tests = new Map();
  const failures = []; // 'name: message' of the failed tests, for the log
  for (const test of (result.results && result.results.tests) || []) {
    if (!tests.has(test.file)) tests.set(test.file, new Map());
    tests.get(test.file).set(test.name, test.status);
    if (test.status === 'failed')
      failures.push(
        `${test.name}: ${String(test.message || '')
          .replace(/\s+/g, ' ')
          .slice(0, 300)}`,
      );
  }
  if (!result.ok) {
    const error = result.error || {};
    return {
      ok: false,
      tests,
      failures,
      error: `${error.code || 'run_failed'}: ${String(error.detail ?? error.message ?? 'the run failed without saying why').slice(0, 1000)}`,
    };
  }
  return { ok: true, tests, failures, coverage: result.results.coverage, files: result.results.files, coverageData };
}

// A runner started ahead of its job in a new folder `dir`: Jest is loaded (about a quarter of a
// second) while generation still shrinks and runs mutants. Not primed: on 2 shared cores a
// priming round (about a second of CPU per runner) slowed the mutant phase more than it sped up
// the runs (ms: mutants 0.7 -> 1.8 s, verification 0.7 -> 0.6 s). { dir, ready: Promise<WarmRunner>, stop() }.
const PRESTART_PRIME_ROUNDS = 0;

// `elsewhere` as for runSuite; the runner keeps it (`runner.elsewhere`).
function startRunner(dir, elsewhere = null) {
  fs.mkdirSync(dir, { recursive: true });
  let runner = null;
  let stopped = false;
  const ready = WarmRunner.start(runnerStart(dir, ['--prime-rounds', String(PRESTART_PRIME_ROUNDS)], elsewhere)).then(
    (started) => {
      runner = started;
      if (stopped) started.child.kill('SIGKILL');
      return started;
    },
  );
  ready.catch(() => {});
  return {
    dir,
    elsewhere,
    ready,
    stop() {
      stopped = true;
      if (runner && !runner.closed) runner.child.kill('SIGKILL');
    },
  };
}

module.exports = { runSuite, startRunner, testKey, holdRunsTo };
