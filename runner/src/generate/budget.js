'use strict';
// How a job's time budget is split: searching for inputs, then making the chosen tests simpler,
// then running them against mutants (adding tests that kill survivors), then verification, which runs Jest at least twice. A Jest run over the generated suite is
// estimated as a fixed start plus a cost per test file, so verification's share grows with the suite.

const JEST_RUN_BASE_MS = 600;
const JEST_RUN_PER_FILE_MS = 120;
const VERIFY_SLACK_MS = 1000;
const MIN_VERIFY_MS = 2000;
const MAX_VERIFY_SHARE = 0.5;
const MIN_SEARCH_SHARE = 0.25;
const SHRINK_SHARE = 0.1;
const MUTATION_SHARE = 0.1;

// Returns the absolute times at which each phase must end.
function planBudget(started, budgetMs, testFileCount) {
  const deadline = started + budgetMs;
  const jestRunMs = JEST_RUN_BASE_MS + JEST_RUN_PER_FILE_MS * testFileCount;
  const verifyMs = Math.min(budgetMs * MAX_VERIFY_SHARE, Math.max(MIN_VERIFY_MS, 2 * jestRunMs + VERIFY_SLACK_MS));
  const mutationDeadline = Math.max(started + budgetMs * MIN_SEARCH_SHARE, deadline - verifyMs);
  const shrinkDeadline = mutationDeadline - budgetMs * MUTATION_SHARE;
  return { searchDeadline: shrinkDeadline - budgetMs * SHRINK_SHARE, shrinkDeadline, mutationDeadline, deadline };
}

module.exports = { planBudget };
