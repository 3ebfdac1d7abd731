'use strict';
// Mutants of a module, and keeping tests for the mutants they kill.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { mutantsOf, applyMutant } = require('../../src/generate/selection/mutants');
const { matchesRun } = require('../../src/generate/search/stability');

const GENERATE = path.join(__dirname, '..', '..', 'bin', 'generate.js');

test('mutants are the one-token changes Stryker makes, never in module names, keys or directives', () => {
  const code = `'use strict';
const util = require('util');
exports.size = function size(n, opts) {
  if (n >= 10 && !opts.exact) return { label: 'big', n: n * 2 };
  return [n, String(n).toLowerCase()];
};
`;
  const mutated = mutantsOf(code).map((mutant) => `${mutant.mutator}:${applyMutant(code, mutant).split('\n')[3].trim()}`);
  for (const expected of [
    "EqualityOperator:if (n > 10 && !opts.exact) return { label: 'big', n: n * 2 };",
    "LogicalOperator:if (n >= 10 || !opts.exact) return { label: 'big', n: n * 2 };",
    "ConditionalExpression:if (true) return { label: 'big', n: n * 2 };",
    "ConditionalExpression:if (false) return { label: 'big', n: n * 2 };",
    "BooleanLiteral:if (n >= 10 && opts.exact) return { label: 'big', n: n * 2 };",
    'StringLiteral:if (n >= 10 && !opts.exact) return { label: "", n: n * 2 };',
    "ArithmeticOperator:if (n >= 10 && !opts.exact) return { label: 'big', n: n / 2 };",
  ]) assert.ok(mutated.includes(expected), `${expected} among\n${mutated.join('\n')}`);
  const lines = mutantsOf(code).map((mutant) => applyMutant(code, mutant));
  assert.ok(lines.some((text) => text.includes('return [];')), 'ArrayDeclaration');
  assert.ok(lines.some((text) => text.includes('return [n, String(n)];')), 'MethodExpression');
  assert.ok(lines.every((text) => text.includes("'use strict'") && text.includes("require('util')") && text.includes('label:')));
  assert.deepEqual(mutantsOf('this is not javascript ('), []);
});

test('a run matches what a test asserts: equal values, values of the type where runs disagreed, the same error', () => {
  const expected = {
    outcomes: [{ kind: 'return', value: { t: 'object', ctor: null, entries: [['id', { t: 'unstable', types: ['string'] }], ['n', { t: 'number', v: 2 }]] } }],
    effects: [[]],
  };
  const run = (n, id = { t: 'string', v: 'x1' }) => ({ ok: true, disturbances: [], effects: [[]], outcomes: [{ kind: 'return', value: { t: 'object', ctor: null, entries: [['id', id], ['n', { t: 'number', v: n }]] } }] });
  assert.equal(matchesRun(expected, run(2)), true);
  assert.equal(matchesRun(expected, run(3)), false);
  assert.equal(matchesRun(expected, run(2, { t: 'number', v: 1 })), false);
  assert.equal(matchesRun(expected, { ...run(2), outcomes: [{ kind: 'throw', value: { t: 'error', ctor: 'Error', message: 'x' } }] }), false);
  assert.equal(matchesRun(expected, { ok: false, lost: 'timeout' }), false);
  assert.equal(matchesRun(expected, { ...run(2), disturbances: ['process.exit(1)'] }), false);
});

test('a test that kills a surviving mutant joins the suite, and the summary states the sampled score', () => {
  // Every branch is covered by two calls; only a call at exactly 10 tells `>` from `>=`, and only
  // an upper-case word shows that the slug is lower-cased.
  const files = [{
    path: 'size.js',
    content: `exports.size = (n) => (n > 10 ? 'big' : 'small');
exports.slug = (words) => words.join('-').toLowerCase();
`,
  }];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 10000 }) });
  const result = JSON.parse(output.stdout.toString());
  const tests = result.files.find((file) => file.path === '__tests__/size.test.js').content;
  assert.match(tests, /size\(10\)\)\.toBe\('small'\)/, tests);
  const { mutation } = result.summary;
  assert.ok(mutation && mutation.sampled >= 5 && mutation.killed <= mutation.sampled, JSON.stringify(result.summary));
  assert.equal(mutation.score, Math.round((1000 * mutation.killed) / mutation.sampled) / 10);
});

test('a mutant no scenario kills gets one made for it: the compared constant, or the emptied word in place of its neighbour', () => {
  // Set cover needs one call per case group; only '2 hr' tells `case 'hr':` from `case '':`, and
  // only unit(3600000) tells `>= HOUR` from `> HOUR` (HOUR is folded from MINUTE * 60).
  const files = [{
    path: 'unit.js',
    content: `var MINUTE = 60000;
var HOUR = MINUTE * 60;
exports.parse = function parse(text) {
  var match = /^(\\d+) *(\\w+)$/.exec(text);
  if (!match) return null;
  switch (match[2]) {
    case 'hours':
    case 'hour':
    case 'hr':
      return match[1] * HOUR;
    case 'minutes':
    case 'min':
      return match[1] * MINUTE;
    default:
      return undefined;
  }
};
exports.unit = function unit(ms) {
  return ms >= HOUR ? 'hours' : 'minutes';
};
`,
  }];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 10000 }) });
  const result = JSON.parse(output.stdout.toString());
  const tests = result.files.find((file) => file.path === '__tests__/unit.test.js').content;
  assert.match(tests, /parse\('\d+ ?hr'\)\)\.toBe\(\d+\)/, tests);
  assert.match(tests, /parse\('\d+ ?min'\)\)\.toBe\(\d+\)/, tests);
  assert.match(tests, /unit\(3600000\)\)\.toBe\('hours'\)/, tests);
});

test('a string that differs between runs is asserted by the ends both share, cut back to a separator', () => {
  const { mergeRuns } = require('../../src/generate/search/stability');
  const { valueSource } = require('../../src/generate/writing/value-source');
  const merged = (a, b) => mergeRuns(
    { outcomes: [{ kind: 'return', value: { t: 'string', v: a } }], effects: [], keys: [] },
    { outcomes: [{ kind: 'return', value: { t: 'string', v: b } }], effects: [], keys: [] },
  ).outcomes[0].value;
  // The years share '202': a test asserting it would fail in 2030.
  const stamp = merged('job@2026-11-25T03:40:00.123Z', 'job@2027-12-30T06:47:11.623Z');
  assert.equal(valueSource(stamp), 'expect.stringMatching(/^job@[\\s\\S]*$/)');
  assert.equal(valueSource(merged('out/a1.log', 'out/b2.log')), 'expect.stringMatching(/^out\\/[\\s\\S]*\\.log$/)');
  assert.equal(valueSource(merged('k3j2h1', 'k9a8b7')), 'expect.any(String)');
  const run = (v) => ({ ok: true, disturbances: [], effects: [], outcomes: [{ kind: 'return', value: { t: 'string', v } }] });
  const expected = { outcomes: [{ kind: 'return', value: stamp }], effects: [] };
  assert.equal(matchesRun(expected, run('job@2031-01-01T00:00:00.000Z')), true);
  assert.equal(matchesRun(expected, run('@2031-01-01T00:00:00.000Z')), false, 'a mutant that drops the label is caught');
});
