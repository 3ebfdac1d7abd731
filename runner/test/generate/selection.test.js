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
  const large = planBudget(0, 20000, 40);
  assert.ok(large.mutationDeadline < small.mutationDeadline, 'more test files, more time for Jest');
  // A package's 14 test files: about 11 s of budget time a Jest run (marked@4.3.0), two runs.
  const packageSized = planBudget(0, 42000, 14);
  assert.ok(packageSized.deadline - packageSized.mutationDeadline >= 18000);
  const tiny = planBudget(0, 1000, 1);
  assert.ok(tiny.searchDeadline >= 0 && tiny.mutationDeadline >= 250);
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
