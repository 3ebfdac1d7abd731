'use strict';
// How a job's time budget is split: searching for inputs, then making the chosen tests simpler,
// then running them against mutants (adding tests that kill survivors), then verification, which
// runs Jest at least twice, so its share grows with the suite. Times are budget time
// (budget-clock.js).

// A Jest run over the generated suite: a fixed start plus a cost per test file (its module graph
// loaded afresh, the sources transformed and instrumented for coverage). Measured on a package of
// 14 test files (marked@4.3.0): about 11 s of budget time a run, where 120 ms a file had planned
// 2.3 s, so that packages ended their search with too little wall time left to verify anything.
const JEST_RUN_MS = { base: 600, perFile: 600 };
// Verification: two Jest runs and some slack, at least MIN_VERIFY_MS.
const VERIFY_SLACK_MS = 1000;
const MIN_VERIFY_MS = 2000;
// Parts of the whole budget.
const SHARE = { maxVerify: 0.5, minSearch: 0.25, shrink: 0.1, mutation: 0.1 };

// Returns the absolute times at which each phase must end.
function planBudget(started, budgetMs, testFileCount) {
  const deadline = started + budgetMs;
  const jestRunMs = JEST_RUN_MS.base + JEST_RUN_MS.perFile * testFileCount;
  const verifyMs = Math.min(budgetMs * SHARE.maxVerify, Math.max(MIN_VERIFY_MS, 2 * jestRunMs + VERIFY_SLACK_MS));
  const mutationDeadline = Math.max(started + budgetMs * SHARE.minSearch, deadline - verifyMs);
  const shrinkDeadline = mutationDeadline - budgetMs * SHARE.mutation;
  return { searchDeadline: shrinkDeadline - budgetMs * SHARE.shrink, shrinkDeadline, mutationDeadline, deadline };
}

module.exports = { planBudget };
