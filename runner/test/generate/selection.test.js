'use strict';
// Choosing which scenarios become tests, and how the time budget is split.

const test = require('node:test');
const assert = require('node:assert/strict');
const { minimizeCorpus } = require('../../src/generate/selection/minimize');
const { planBudget } = require('../../src/generate/budget');

const entry = (name, keys, { happy = true, steps = 1 } = {}) => ({
  name,
  keys: new Set(keys),
  happy,
  rendered: { steps: Array.from({ length: steps }, () => ({ expression: `f(${name})` })) },
});

test('keeps the fewest scenarios that cover every key, in discovery order', () => {
  const corpus = [entry('a', ['s1']), entry('b', ['s2']), entry('c', ['s1', 's2', 's3']), entry('d', ['s4'])];
  assert.deepEqual(
    minimizeCorpus(corpus).map((e) => e.name),
    ['c', 'd'],
  );
});

test('between equal scenarios prefers one that ends in a value, then the shorter one', () => {
  const throwing = entry('throws', ['s1', 'f0'], { happy: false });
  const returning = entry('returns', ['s1', 'f0']);
  const longer = entry('longer', ['s1', 'f0'], { steps: 2 });
  assert.deepEqual(
    minimizeCorpus([throwing, longer, returning]).map((e) => e.name),
    ['returns'],
  );
});

test('plans two Jest runs for verification and leaves the rest to the search', () => {
  const small = planBudget(0, 20000, 1);
  assert.equal(small.deadline, 20000);
  assert.ok(small.mutationDeadline > 16000 && small.mutationDeadline < small.deadline);
  assert.ok(small.searchDeadline < small.shrinkDeadline && small.shrinkDeadline < small.mutationDeadline);
  // The mutant phase has a fifth of the budget even when the search runs to its deadline.
  assert.ok(small.mutationDeadline - small.shrinkDeadline >= 4000, JSON.stringify(small));
  const large = planBudget(0, 20000, 40);
  assert.ok(large.mutationDeadline < small.mutationDeadline, 'more test files, more time for Jest');
  // A package's 14 test files: about 11 s of budget time a Jest run (marked@4.3.0), two runs.
  const packageSized = planBudget(0, 42000, 14);
  assert.ok(packageSized.deadline - packageSized.mutationDeadline >= 18000);
  const tiny = planBudget(0, 1000, 1);
  assert.ok(tiny.searchDeadline >= 0 && tiny.mutationDeadline >= 250);
});

test("the search's deadline is planned over what loading the modules left of the budget", () => {
  // A package's 80 modules loaded in 12.6 s of a 60 s budget: counted from the start, the search
  // ended at 12 s, before it began.
  const loaded = planBudget(0, 60000, 80, 12600);
  assert.equal(loaded.deadline, 60000);
  assert.ok(loaded.searchDeadline - 12600 >= 9000, JSON.stringify(loaded));
  assert.ok(loaded.searchDeadline < loaded.shrinkDeadline && loaded.shrinkDeadline < loaded.mutationDeadline);
  assert.ok(loaded.mutationDeadline < loaded.deadline);
  // A load that took no time plans as before.
  assert.deepEqual(planBudget(0, 20000, 1, 0), planBudget(0, 20000, 1));
});

test("a busy machine's budget stretches only as far as it leaves verification the wall time its groups need", () => {
  const { budgetWallMs } = require('../../src/generate/pipeline');
  const { verificationWallMs } = require('../../src/generate/budget');
  // A run: 1 s, 12 ms a KB of sources, 0.5 s a test file of its group; the first runs count three.
  assert.equal(verificationWallMs(1, 20, 0), 4500);
  assert.equal(verificationWallMs(0, 20, 1024), 0);
  // lodash: 80 test files in 4 groups over 740 KB of sources, 19.88 s a run, 6 runs' time.
  const lodash = { testFiles: 80, sourceBytes: 740 * 1024 };
  assert.equal(verificationWallMs(80, 20, lodash.sourceBytes), 119280);
  // vouchd's job for one module (20 s budget, 30 s stretch, answer by 70 s): the stretch as asked.
  const oneModule = { testFiles: 1, sourceBytes: 2000 };
  assert.equal(budgetWallMs({ timeBudgetMs: 20000, wallLimitMs: 30000, deadlineMs: 70000 }, oneModule, 0), 30000);
  // lodash (60 s, 120 s, answer by 160 s): 158 s less verification's 119.28 s.
  assert.equal(budgetWallMs({ timeBudgetMs: 60000, wallLimitMs: 120000, deadlineMs: 160000 }, lodash, 0), 38720);
  // Time already taken counts; the stretch never falls under a quarter of the wall limit.
  assert.equal(budgetWallMs({ timeBudgetMs: 60000, wallLimitMs: 120000, deadlineMs: 160000 }, lodash, 1000), 37720);
  const huge = { testFiles: 400, sourceBytes: 0 };
  assert.equal(budgetWallMs({ timeBudgetMs: 20000, wallLimitMs: 40000, deadlineMs: 50000 }, huge, 0), 10000);
  // Without a deadline, the wall limit (1.5 times the budget without one).
  assert.equal(budgetWallMs({ timeBudgetMs: 20000 }, lodash, 0), 30000);
  // On a busy machine verification needs longer: with a third of the machine (or less), three
  // times the idle estimate of 4.57 s is kept for it (70 s less 2 s to answer less 13.71 s).
  const room = { timeBudgetMs: 20000, wallLimitMs: 60000, deadlineMs: 70000 };
  assert.equal(budgetWallMs(room, oneModule, 0, 1), 60000);
  assert.equal(budgetWallMs(room, oneModule, 0, 1 / 3), 54290);
  assert.equal(budgetWallMs(room, oneModule, 0, 0.01), 54290);
});

test('keeps a direct test that ends in a value for every target, even when error paths cover its code', () => {
  const parse = { label: 'parse' };
  const format = { label: 'format' };
  const corpus = [
    { ...entry('parse throws', ['s1', 's2', 's3'], { happy: false }), target: parse },
    { ...entry('parse returns', ['s1', 's2']), target: parse },
    { ...entry('format returns', ['s4']), target: format },
  ];
  assert.deepEqual(
    minimizeCorpus(corpus).map((e) => e.name),
    ['parse throws', 'parse returns', 'format returns'],
  );
});

test('keeps a test where each member completes: push() is kept beside pop() on an empty stack and size', () => {
  const stack = { id: 'stack.js#Stack' };
  const step = (op, name) => ({ op, name, receiver: op === 'new' ? undefined : 'stack' });
  const withSteps = (name, keys, steps, outcomes, happy = true) => ({
    ...entry(name, keys, { happy, steps: steps.length }),
    target: stack,
    scenario: { steps },
    outcomes,
  });
  const returned = { kind: 'return', value: { t: 'number', v: 1 } };
  const thrown = { kind: 'throw', value: { t: 'error' } };
  const corpus = [
    // Set cover takes these two: together they hold every key (push's one statement is also run
    // by pop's error path in this made-up corpus).
    withSteps(
      'pop throws',
      ['ctor', 'pop-if', 'pop-throw', 'push', 'guard'],
      [step('new'), step('method', 'pop')],
      [returned, thrown],
      false,
    ),
    withSteps('size', ['ctor', 'size', 'pop-return'], [step('new'), step('get', 'size')], [returned, returned]),
    withSteps(
      'push then pop',
      ['ctor', 'push', 'pop-if', 'pop-return'],
      [step('new'), step('method', 'push'), step('method', 'pop')],
      [returned, returned, returned],
    ),
  ];
  assert.deepEqual(
    minimizeCorpus(corpus).map((e) => e.name),
    ['pop throws', 'size', 'push then pop'],
  );
});

test("the budget scales with the sources tested, not with all those vouchd counted, and never past the job's", () => {
  const { testedBudgetMs, budgetScale } = require('../../src/generate/budget');
  const small = Array.from({ length: 16 }, () => 2000);
  // vouchd counted 53 sources (3 budgets); 16 are tested.
  assert.equal(testedBudgetMs({ timeBudgetMs: 60000, baseBudgetMs: 20000 }, small), 32000);
  // One big class of 80 KiB is searched as long as two budgets.
  assert.equal(budgetScale([80 * 1024]), 2);
  assert.equal(testedBudgetMs({ timeBudgetMs: 60000, baseBudgetMs: 20000 }, [78 * 1024, 2 * 1024]), 40000);
  assert.equal(testedBudgetMs({ timeBudgetMs: 30000, baseBudgetMs: 20000 }, [80 * 1024]), 30000);
  assert.equal(testedBudgetMs({ timeBudgetMs: 20000, baseBudgetMs: 20000 }, []), 20000);
  // Without the configured budget stated, the job's budget is used as it is.
  assert.equal(testedBudgetMs({ timeBudgetMs: 60000 }, small), 60000);
});

test("a package's own tests do not grow its budget: the job's budget is scaled down to the one module tested", async () => {
  const { generateTests } = require('../../src/generate/pipeline');
  const files = [
    { path: 'package.json', content: JSON.stringify({ name: 'sign', version: '1.0.0', main: 'index.js' }) },
    { path: 'index.js', content: "exports.sign = (n) => (n > 0 ? 'positive' : 'not positive');\n" },
    ...Array.from({ length: 29 }, (_, i) => ({
      path: `test/case${i}.test.js`,
      content: `const { sign } = require('..'); test('case ${i}', () => expect(sign(${i})).toBeTruthy());\n`,
    })),
  ];
  const lines = [];
  const result = await generateTests(
    { files, timeBudgetMs: 30000, baseBudgetMs: 10000, wallLimitMs: 60000 },
    { log: (line) => lines.push(line) },
  );
  assert.ok(
    lines.some((line) => line.includes('budget 10000 ms of 30000')),
    lines.join('\n'),
  );
  assert.ok(result.summary.testsKept > 0);
});
