'use strict';
// Builds the `summary` of a result from what generation and verification produced.

const METRICS = ['statements', 'branches', 'functions', 'lines'];

// files: the run's per-file coverage, [{ path, coverage }] (paths as submitted).
function buildSummary({ modules, testsGenerated, suites, coverage, files, problems }) {
  const byPath = new Map((files || []).map((file) => [file.path, file.coverage]));
  const keptByFile = new Map(suites.map((suite) => [suite.spec.sourcePath, suite.cases.length]));
  const perFile = modules.map((module) => ({
    path: module.path,
    exports: module.exportNames,
    testsKept: keptByFile.get(module.path) || 0,
    coverage: byPath.get(module.path) || null,
  }));
  return {
    functionsFound: modules.reduce((sum, module) => sum + module.functionsFound, 0),
    testsGenerated,
    testsKept: suites.reduce((sum, suite) => sum + suite.cases.length, 0),
    coverage: coverage || Object.fromEntries(METRICS.map((metric) => [metric, 0])),
    perFile,
    problems,
  };
}

module.exports = { buildSummary };
