'use strict';
// Builds the `summary` of a result from what generation and verification produced.

const METRICS = ['statements', 'branches', 'functions', 'lines'];

// files: the run's per-file coverage, [{ path, coverage }] (paths as submitted).
// mutation: { killed, total, complete } from strengthen.js: the sampled mutants the tests handed
// to verification kill. Stated as `mutation` only when verification kept every one of them (the
// score is of the suite returned) and there were mutants to count.
// model: the package (package/package-model.js), whose reading and skipped files are stated.
function buildSummary({ modules, testsGenerated, suites, coverage, files, problems, mutation = null, model = null }) {
  const byPath = new Map((files || []).map((file) => [file.path, file.coverage]));
  const keptByFile = new Map(suites.map((suite) => [suite.spec.sourcePath, suite.cases.length]));
  const perFile = modules.map((module) => ({
    path: module.path,
    exports: module.exportNames,
    testsKept: keptByFile.get(module.path) || 0,
    coverage: byPath.get(module.path) || null,
  }));
  // Programs (package.json's bin) are tested by running them: their coverage is not measured.
  for (const suite of suites.filter((kept) => kept.spec.program)) {
    perFile.push({
      path: suite.spec.program.path,
      exports: [`bin ${suite.spec.program.name}`],
      testsKept: suite.cases.length,
      coverage: null,
    });
  }
  const testsKept = suites.reduce((sum, suite) => sum + suite.cases.length, 0);
  const measured = mutation && mutation.total > 0 && testsKept === testsGenerated && testsKept > 0;
  return {
    functionsFound: modules.reduce((sum, module) => sum + module.functionsFound, 0),
    testsGenerated,
    testsKept,
    coverage: coverage || Object.fromEntries(METRICS.map((metric) => [metric, 0])),
    ...(measured
      ? {
          mutation: {
            score: Math.round((1000 * mutation.killed) / mutation.total) / 10,
            killed: mutation.killed,
            sampled: mutation.total,
          },
        }
      : {}),
    perFile,
    problems,
    ...(model ? { package: model.summary(), skipped: model.skipped } : {}),
  };
}

module.exports = { buildSummary };
