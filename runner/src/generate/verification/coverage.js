'use strict';
// The coverage of a suite verified in groups of test files (verify.js): each group's run measures
// every source of the folder (a source no test of the group loads counts, at 0%), so the suite's
// coverage is the union of the groups' final runs, as one run of the whole suite would measure it
// (Jest runs each test file in a module registry of its own). Runs are read from the
// coverage-final.json that bin/run.js writes; paths are made relative to the run's folder, since
// each group runs in a folder of its own.

const fs = require('node:fs');
const path = require('node:path');
const libCoverage = require('istanbul-lib-coverage');
const { percentages } = require('../../run/summarize');
const { COVERAGE_REPORT_DIR } = require('../../run/jest-argv');

// The run's istanbul coverage data by paths relative to `root` (its folder), or null when the run
// wrote none.
function readRunCoverage(root) {
  let data;
  try {
    data = JSON.parse(fs.readFileSync(path.join(root, COVERAGE_REPORT_DIR, 'coverage-final.json'), 'utf8'));
  } catch {
    return null;
  }
  const relative = {};
  for (const [file, fileCoverage] of Object.entries(data)) {
    const name = path.relative(root, file).split(path.sep).join('/');
    relative[name] = { ...fileCoverage, path: name };
  }
  return relative;
}

// The union of runs' coverage data (from readRunCoverage): { coverage, files } in the shape of a
// run's result (`coverage`: the totals in percent; `files`: [{ path, coverage }]).
function mergeCoverage(parts) {
  const map = libCoverage.createCoverageMap({});
  for (const part of parts) map.merge(part);
  return {
    coverage: percentages(map.files().length ? map.getCoverageSummary() : null),
    files: map.files().map((file) => ({ path: file, coverage: percentages(map.fileCoverageFor(file).toSummary()) })),
  };
}

module.exports = { readRunCoverage, mergeCoverage };
