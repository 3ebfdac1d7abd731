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
// Parts of the whole budget. The mutant phase has at least a fifth: with a tenth, a search that
// ran to its deadline (most modules of a few hundred lines on a busy machine) left it about 2 s,
// in which mime-types' phase checked 2 of its 160 sampled mutants; such searches made their last
// gain 4-5 s before their deadline (mime-types, path-to-regexp).
const SHARE = { maxVerify: 0.5, minSearch: 0.25, shrink: 0.1, mutation: 0.2 };

// The wall time verification needs at least, for `testFileCount` test files verified in groups of
// `groupSize` (verification/verify.js) over `sourceBytes` of JavaScript in the suite's folder.
// Each run collects coverage over every source of the folder, which costs about the same however
// few tests it runs: Jest instruments, and parses again, each source no test loaded (lodash's
// 206 files, 0.7 MB: 9 s a run of one small test file on a busy machine, 1.3 s without
// coverage), besides a fixed start and a share per test file. The first runs of each lane also
// transform every source: about three runs' time (lodash: 60 s in the sandbox, load 8). The
// budget may stretch on a busy machine only as far as it leaves this much before the job's
// deadline: a suite found but not verified keeps nothing. Verification also caps a group's first
// runs at twice this estimate (verify.js), so that a run that hangs leaves time to find out why.
const VERIFY_RUN_MS = { base: 1000, perSourceKb: 12, perTestFile: 500, firstRuns: 3 };
// How much longer than on an idle machine a Jest run takes when the job gets `share` of the
// machine (the budget clock's figure), at most `most` times: verificationWallMs is an idle
// machine's estimate. At a load of 25-30 on 2 cores, immer's first verification run took 50 s
// where the estimate was 34 s; with the estimate reserved, the budget had stretched until 56 s
// were left, and the run did not end in them. The wall time reserved for verification stretches
// threefold at most (the default): by the share itself (1/15 at that load) it took a quarter of
// the wall limit whatever the package, and graceful-fs's shorter search kept 27 tests at 44.5%
// where it had kept 37 at 54.7%. A first run's cap (verify.js) stretches further.
function busyStretch(share, most = 3) {
  return Math.min(most, 1 / Math.min(1, Math.max(share || 1, 1 / most)));
}

function verificationWallMs(testFileCount, groupSize, sourceBytes = 0) {
  if (!testFileCount) return 0;
  const groups = Math.ceil(testFileCount / groupSize);
  const runMs =
    VERIFY_RUN_MS.base +
    (VERIFY_RUN_MS.perSourceKb * sourceBytes) / 1024 +
    VERIFY_RUN_MS.perTestFile * Math.min(groupSize, testFileCount);
  return Math.round((VERIFY_RUN_MS.firstRuns + groups - 1) * runMs);
}

// Returns the absolute times at which each phase must end. The phases are planned over what
// loading the modules (which ended at `loadedAt`, budget time) left of the budget: a package's
// loads take seconds (date-fns: 80 modules, 12.6 s of a 60 s budget), and shares of the whole
// budget counted from the start had given its search a deadline that loading had already passed.
function planBudget(started, budgetMs, testFileCount, loadedAt = started) {
  const deadline = started + budgetMs;
  const from = Math.min(Math.max(loadedAt, started), deadline);
  const leftMs = deadline - from;
  const jestRunMs = JEST_RUN_MS.base + JEST_RUN_MS.perFile * testFileCount;
  const verifyMs = Math.min(leftMs * SHARE.maxVerify, Math.max(MIN_VERIFY_MS, 2 * jestRunMs + VERIFY_SLACK_MS));
  const mutationDeadline = Math.max(from + leftMs * SHARE.minSearch, deadline - verifyMs);
  const shrinkDeadline = mutationDeadline - leftMs * SHARE.mutation;
  return { searchDeadline: shrinkDeadline - leftMs * SHARE.shrink, shrinkDeadline, mutationDeadline, deadline };
}

// vouchd grows a package's budget with its JavaScript and TypeScript sources
// (actors/execution/generation_scale.cpp): one more budget per SCALE.sourcesPerBudget of them or
// per SCALE.bytesPerBudget of them, whichever is more, up to SCALE.max times. The rule is one file,
// budget-scale.json, which vouchd's build reads too (CMakeLists.txt). vouchd counts every
// source it sends; of those, the package model may test far fewer (its own tests, type
// declarations, ES module twins, other platforms' variants are skipped: uuid sends 53 sources and
// 16 are tested). With the configured budget stated (`baseBudgetMs`), the job's budget is that
// scaled by the sources tested (`sourceBytes`: the byte size of each target and program), never
// more than `timeBudgetMs`, which sized the sandbox's limits.
const SCALE = require('./budget-scale.json');

function budgetScale(sourceBytes) {
  const bytes = sourceBytes.reduce((sum, size) => sum + size, 0);
  const scale = Math.max(sourceBytes.length / SCALE.sourcesPerBudget, bytes / SCALE.bytesPerBudget);
  return Math.min(SCALE.max, Math.max(1, scale));
}

function testedBudgetMs(job, sourceBytes) {
  if (job.baseBudgetMs == null) return job.timeBudgetMs;
  return Math.min(job.timeBudgetMs, Math.round(job.baseBudgetMs * budgetScale(sourceBytes)));
}

module.exports = { planBudget, verificationWallMs, busyStretch, budgetScale, testedBudgetMs };
