'use strict';
// A busy machine is a problem of the job (`timeout`, path `files`) only when it took work from it:
// the budget did not fit in the wall limit AND the search ran until its deadline. A search that
// stopped on its own (everything covered) lost nothing, however busy the machine.

const test = require('node:test');
const assert = require('node:assert/strict');
const { generateTests } = require('../../src/generate/pipeline');
const { clock } = require('../../src/generate/budget-clock');

// Generates for `files` on a machine that looks busy: eight runnable tasks on two cores beside
// the job's one, so the budget advances at a quarter of the wall time and cannot stretch
// (wallLimitMs = the budget). A search expected to stop on its own gets a long budget, so that a
// really busy machine (CI builds beside the tests) cannot make it reach its deadline.
async function generateOnBusyMachine(files, limitMs = 6000) {
  const runnable = clock.runnable;
  const cores = clock.cores;
  clock.runnable = () => ({ total: 9, own: 1 });
  clock.cores = 2;
  try {
    return await generateTests({ files, timeBudgetMs: limitMs, wallLimitMs: limitMs });
  } finally {
    clock.runnable = runnable;
    clock.cores = cores;
  }
}

const busyProblems = (result) =>
  result.summary.problems.filter((problem) => problem.path === 'files' && problem.code === 'timeout');

test('a search that covers everything and stops on its own reports no busy machine', async () => {
  // Each call takes 40 ms: shrinking and mutant runs take seconds, far more than the 1 s of cut
  // budget that a busy machine reports.
  const content = `exports.sign = (n) => {
  const end = Date.now() + 40;
  while (Date.now() < end);
  return n > 0 ? 'positive' : 'not positive';
};
`;
  const result = await generateOnBusyMachine([{ path: 'sign.js', content }], 30000);
  assert.ok(result.summary.testsKept >= 1, JSON.stringify(result.summary));
  assert.deepEqual(busyProblems(result), [], JSON.stringify(result.summary.problems));
});

test('a search that runs until its deadline on a busy machine says the machine was busy', async () => {
  // A branch no generated input reaches keeps the search going until its deadline.
  const content = `exports.check = (s) => {
  if (typeof s === 'string' && s.length === 37 && s.endsWith('q7')) return 'found';
  return s === 3 ? 'three' : 'other';
};
`;
  const result = await generateOnBusyMachine([{ path: 'check.js', content }]);
  const problems = busyProblems(result);
  assert.equal(problems.length, 1, JSON.stringify(result.summary.problems));
  assert.match(
    problems[0].message,
    /^the machine was busy: [\d.]+ s of the 6 s budget did not fit in the 6 s wall limit/,
  );
});
