'use strict';
// Builds the `summary` of a result from what generation and verification produced.

const path = require('node:path');

const METRICS = ['statements', 'branches', 'functions', 'lines'];

function percentages(entry) {
  return Object.fromEntries(METRICS.map((metric) => [metric, entry ? entry[metric].pct : 0]));
}

// Jest keys its coverage summary by absolute path; the result speaks of submitted paths.
function coverageByPath(coverage, suiteDir) {
  const byPath = new Map();
  for (const [key, entry] of Object.entries(coverage || {})) {
    if (key !== 'total') byPath.set(path.relative(suiteDir, key).split(path.sep).join('/'), entry);
  }
  return byPath;
}

function buildSummary({ modules, testsGenerated, suites, coverage, suiteDir, problems }) {
  const byPath = coverageByPath(coverage, suiteDir);
  const keptByFile = new Map(suites.map((suite) => [suite.spec.sourcePath, suite.cases.length]));
  const perFile = modules.map((module) => ({
    path: module.path,
    exports: module.exportNames,
    testsKept: keptByFile.get(module.path) || 0,
    coverage: byPath.has(module.path) ? percentages(byPath.get(module.path)) : null,
  }));
  return {
    functionsFound: modules.reduce((sum, module) => sum + module.functionsFound, 0),
    testsGenerated,
    testsKept: suites.reduce((sum, suite) => sum + suite.cases.length, 0),
    coverage: percentages(coverage && coverage.total),
    perFile,
    problems,
  };
}

module.exports = { buildSummary };
