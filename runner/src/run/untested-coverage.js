'use strict';

// Jest's coverage of the sources no test loaded: a few files at a time, and
// each file's reading kept for the next runs.
//
// With collectCoverageFrom (jest-argv.js), Jest ends a run with the coverage
// of every source no test loaded (@jest/reporters, CoverageReporter's
// _addUntestedFiles): it transforms each with instrumentation (Jest's cache
// keeps that), then parses the instrumented code again to read its initial
// coverage (istanbul-lib-instrument's readInitialCoverage). Two costs, which a
// package of hundreds of sources pays in full:
// - Memory. In band it starts every file at once (a Promise.all over them),
//   so the sources, Babel's trees and the instrumented code of all of them
//   are alive together. A date-fns suite's run (21 test files among the
//   package's 2,195 sources) peaked at 981 MB resident, near the sandbox's
//   1 GiB memory limit (RLIMIT_DATA), where node dies by SIGSEGV: one of five
//   runs of such a suite was killed so.
// - Time. The parse took 45 ms a file on a busy machine, in every run,
//   transforms cached or not: 93 of the 108 s of a run whose transforms were
//   all cached.
// This gives Jest a stand-in for its in-band coverage worker that runs the
// real one for at most MAX_CONCURRENT files at a time, loaded when Jest would
// have loaded it (it installs a handler of uncaught exceptions), and one for
// istanbul-lib-instrument that keeps each reading in Jest's cache folder,
// named by the SHA-1 of the instrumented code it was read from: a kept
// reading is exactly what parsing that code gives. The folder's name starts as Jest's transform folders do, so the
// server lends it with them to the project's later runs
// (runner_cache/transform_cache.hpp) and verification's runs of a lane share
// it (src/generate/verification/run-suite.js). Like a transform, what a run
// leaves there reaches only its own project's runs.

const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const pLimit = require('p-limit');

const REPORTERS_DIR = path.dirname(require.resolve('@jest/reporters/package.json'));
const COVERAGE_WORKER = path.join(REPORTERS_DIR, 'build', 'CoverageWorker.js');
const INSTRUMENTER = require.resolve('istanbul-lib-instrument', { paths: [REPORTERS_DIR] });
const READINGS_FOLDER = 'jest-transform-cache-vouch-initial-coverage';
// Files whose coverage is computed at once: enough to overlap the reading of
// one file with the transform of another, few enough to bound memory.
const MAX_CONCURRENT = 4;

// Where readings are kept: the folder in the Jest cache of the run going on.
let readings = null;

// `cacheDirectory`: the Jest cache folder of the run about to start (a
// runner's warm-up has its own), where its readings are kept.
function useBoundedUntestedCoverage(cacheDirectory) {
  readings = path.join(cacheDirectory, READINGS_FOLDER);
  if (require.cache[COVERAGE_WORKER]) return; // the stand-ins, or the modules loaded as they are
  if (!require.cache[INSTRUMENTER]) standIn(INSTRUMENTER, (load) => instrumenterWithKeptReadings(load));
  const limit = pLimit(MAX_CONCURRENT);
  standIn(COVERAGE_WORKER, (load) => ({ worker: (request) => limit(() => load().worker(request)) }));
}

// Puts in Node's module cache, for `filename`, the exports that make(load)
// returns, where load() gives the real module's, loaded on first use (with
// the stand-in back in the cache after it).
function standIn(filename, make) {
  const placeholder = new module.constructor(filename, module);
  placeholder.filename = filename;
  placeholder.loaded = true;
  let real = null;
  const load = () => {
    if (!real) {
      delete require.cache[filename];
      try {
        real = require(filename);
      } finally {
        require.cache[filename] = placeholder;
      }
    }
    return real;
  };
  placeholder.exports = make(load);
  require.cache[filename] = placeholder;
}

// istanbul-lib-instrument, whose readInitialCoverage reads kept results first,
// and which loads (with Babel) only when a reading is not kept or another of
// its functions is used (babel-plugin-istanbul's programVisitor).
function instrumenterWithKeptReadings(load) {
  const readInitialCoverage = keptReadings((code) => load().readInitialCoverage(code));
  return new Proxy(
    {},
    {
      get: (_, name) => (name === 'readInitialCoverage' ? readInitialCoverage : load()[name]),
      has: (_, name) => name in load(),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, name) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(load(), name);
        return descriptor && { ...descriptor, configurable: true };
      },
    },
  );
}

function keptReadings(readInitialCoverage) {
  return function readKept(code) {
    if (typeof code !== 'string') return readInitialCoverage(code);
    const key = createHash('sha1').update(code).digest('hex');
    const file = path.join(readings, key.slice(0, 2), `${key}.json`);
    const kept = readJson(file);
    if (kept !== undefined) return kept;
    const reading = readInitialCoverage(code);
    keep(file, reading);
    return reading;
  };
}

// The JSON in `file`, or undefined when there is none to use.
function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

// Written whole through a temporary name; a cache that cannot be written only
// makes the next run slower.
function keep(file, reading) {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(reading));
    fs.renameSync(temporary, file);
  } catch {
    // not kept
  }
}

module.exports = { useBoundedUntestedCoverage, READINGS_FOLDER, MAX_CONCURRENT };
