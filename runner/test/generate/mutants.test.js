'use strict';
// Mutants of a module, and keeping tests for the mutants they kill.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { mutantsOf, applyMutant } = require('../../src/generate/selection/mutants');
const { matchesRun } = require('../../src/generate/search/stability');

const GENERATE = path.join(__dirname, '..', '..', 'bin', 'generate.js');

// Generates tests for `files` within `timeBudgetMs`: the answer, and the text of the test file at `testPath`.
function generated(files, timeBudgetMs, testPath) {
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs }) });
  const result = JSON.parse(output.stdout.toString());
  return { result, tests: result.files.find((file) => file.path === testPath).content };
}

// A Search for Strengthener runs: `runOnce` as given, confirm() a second run kept as a corpus entry.
function fakeSearch(runOnce) {
  return {
    runOnce,
    async confirm(target, scenario, first) {
      const reply = first || (await this.runOnce(target, scenario));
      return { target, scenario, ...reply, keys: new Set(reply.keys), rendered: { steps: [] } };
    },
    observingFor: () => null,
  };
}

// A loaded CommonJS file as Strengthener takes it, with no statement map (every mutant is reached
// by every scenario of the file).
function loadedFile(absolute, code) {
  return {
    loaded: true,
    absolute,
    code,
    analysis: { esm: false, literals: { constants: new Map() } },
    fileCoverage: { statementMap: {} },
  };
}

// Runs `body` with the budget clock reading `read()`, the real clock back after.
async function onClock(read, body) {
  const { clock } = require('../../src/generate/budget-clock');
  const realNow = clock.now;
  clock.now = read;
  try {
    return await body();
  } finally {
    clock.now = realNow;
  }
}

test('mutants are the one-token changes Stryker makes, never in module names, keys or directives', () => {
  const code = `'use strict';
const util = require('util');
exports.size = function size(n, opts) {
  if (n >= 10 && !opts.exact) return { label: 'big', n: n * 2 };
  return [n, String(n).toLowerCase()];
};
`;
  const mutated = mutantsOf(code).map(
    (mutant) => `${mutant.mutator}:${applyMutant(code, mutant).split('\n')[3].trim()}`,
  );
  for (const expected of [
    "EqualityOperator:if (n > 10 && !opts.exact) return { label: 'big', n: n * 2 };",
    "LogicalOperator:if (n >= 10 || !opts.exact) return { label: 'big', n: n * 2 };",
    "ConditionalExpression:if (true) return { label: 'big', n: n * 2 };",
    "ConditionalExpression:if (false) return { label: 'big', n: n * 2 };",
    // A comparison inside `&&` forced either way, as Stryker does.
    "ConditionalExpression:if (true && !opts.exact) return { label: 'big', n: n * 2 };",
    "ConditionalExpression:if (false && !opts.exact) return { label: 'big', n: n * 2 };",
    "BooleanLiteral:if (n >= 10 && opts.exact) return { label: 'big', n: n * 2 };",
    'StringLiteral:if (n >= 10 && !opts.exact) return { label: "", n: n * 2 };',
    "ArithmeticOperator:if (n >= 10 && !opts.exact) return { label: 'big', n: n / 2 };",
  ])
    assert.ok(mutated.includes(expected), `${expected} among\n${mutated.join('\n')}`);
  const lines = mutantsOf(code).map((mutant) => applyMutant(code, mutant));
  assert.ok(
    lines.some((text) => text.includes('return [];')),
    'ArrayDeclaration',
  );
  assert.ok(
    lines.some((text) => text.includes('return [n, String(n)];')),
    'MethodExpression',
  );
  assert.ok(
    lines.every((text) => text.includes("'use strict'") && text.includes("require('util')") && text.includes('label:')),
  );
  assert.deepEqual(mutantsOf('this is not javascript ('), []);
  // `&&` made `||` keeps its operands whole: `(a || b) && c`, never `a || b && c`.
  const chain = 'f(a && b && c);';
  assert.deepEqual(
    mutantsOf(chain)
      .filter((mutant) => mutant.mutator === 'LogicalOperator')
      .map((mutant) => applyMutant(chain, mutant)),
    ['f((a || b) && c);', 'f((a && b) || c);'],
  );
  // A compound assignment swapped, as Stryker does; not one that builds a string.
  const assigned = mutantsOf("let n = 1, s = '';\nn -= 0;\ns += 'x';\nn *= 2;\n")
    .filter((mutant) => mutant.mutator === 'AssignmentOperator')
    .map((mutant) => mutant.replacement);
  assert.deepEqual(assigned, ['+=', '/=']);
});

test('a run matches what a test asserts: equal values, values of the type where runs disagreed, the same error', () => {
  // What a call returned: an object { id, n }.
  const returned = (id, n) => [
    {
      kind: 'return',
      value: {
        t: 'object',
        ctor: null,
        entries: [
          ['id', id],
          ['n', n],
        ],
      },
    },
  ];
  const expected = {
    outcomes: returned({ t: 'unstable', types: ['string'] }, { t: 'number', v: 2 }),
    effects: [[]],
  };
  const run = (n, id = { t: 'string', v: 'x1' }) => ({
    ok: true,
    disturbances: [],
    effects: [[]],
    outcomes: returned(id, { t: 'number', v: n }),
  });
  assert.equal(matchesRun(expected, run(2)), true);
  assert.equal(matchesRun(expected, run(3)), false);
  assert.equal(matchesRun(expected, run(2, { t: 'number', v: 1 })), false);
  assert.equal(
    matchesRun(expected, {
      ...run(2),
      outcomes: [{ kind: 'throw', value: { t: 'error', ctor: 'Error', message: 'x' } }],
    }),
    false,
  );
  assert.equal(matchesRun(expected, { ok: false, lost: 'timeout' }), false);
  assert.equal(matchesRun(expected, { ...run(2), disturbances: ['process.exit(1)'] }), false);
});

test('a test that kills a surviving mutant joins the suite, and the summary states the sampled score', () => {
  // Every branch is covered by two calls; only a call at exactly 10 tells `>` from `>=`, and only
  // an upper-case word shows that the slug is lower-cased.
  const files = [
    {
      path: 'size.js',
      content: `exports.size = (n) => (n > 10 ? 'big' : 'small');
exports.slug = (words) => words.join('-').toLowerCase();
`,
    },
  ];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 60000 }) });
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
  const files = [
    {
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
    },
  ];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 60000 }) });
  const result = JSON.parse(output.stdout.toString());
  const tests = result.files.find((file) => file.path === '__tests__/unit.test.js').content;
  assert.match(tests, /parse\('\d+ ?hr'\)\)\.toBe\(\d+\)/, tests);
  assert.match(tests, /parse\('\d+ ?min'\)\)\.toBe\(\d+\)/, tests);
  assert.match(tests, /unit\(3600000\)\)\.toBe\('hours'\)/, tests);
});

// An equality check: both parameters compared with each other, whole and part by part.
const SAME = {
  path: 'same.js',
  content: `module.exports = function same(a, b) {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (a.constructor !== b.constructor) return false;
    if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
    var keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    for (var i = 0; i < keys.length; i++) if (!same(a[keys[i]], b[keys[i]])) return false;
    return true;
  }
  return a !== a && b !== b;
};
`,
};

test('an equality check is given NaN twice, and two instances of the class it compares constructors with', () => {
  // Both parameters are compared with each other, so each takes the other's kinds: the regex of
  // `a.constructor === RegExp`, the NaN of `a !== a`. Only same(NaN, NaN) tells `a !== a` from
  // its mutants, only two regexes reach the regex line.
  const { tests } = generated([SAME], 60000, '__tests__/same.test.js');
  assert.match(tests, /same\(NaN, NaN\)\)\.toBe\(true\)/, tests);
  assert.match(tests, /same\(\/[^/]+\/\w*, \/[^/]+\/\w*\)\)\.toBe\(true\)/, tests);
  const [probe] = mutantsOf('exports.isNaN = (x) => x !== x;').filter(
    (mutant) => mutant.mutator === 'EqualityOperator',
  );
  assert.equal(probe.probe, 'NaN');
});

test('an equality check gets pairs: a copy, one key more, other flags, a boxed primitive, equal Dates', () => {
  // Independent draws for each side almost never give two equal objects, or two that differ in
  // one place; each of these tells a line of `same` from its mutants (the key count check forced
  // false, the flags comparison forced true, `typeof b === 'object'` forced true, `===` made `!==`
  // for values compared by valueOf).
  const { tests } = generated([SAME], 60000, '__tests__/same.test.js');
  assert.match(
    tests,
    /same\(\/([^/]+)\/\w*, \/\1\/\w+\)\)\.toBe\(false\)|same\(\/([^/]+)\/\w+, \/\2\/\w*\)\)\.toBe\(false\)/,
    tests,
  );
  assert.match(tests, /new (Number|String|Boolean)\(/, tests);
  assert.match(tests, /same\(new Date\(0\), new Date\(0\)\)\)\.toBe\(true\)/, tests);
});

test('a pool sized by a constant is outgrown by a second call: the call made at 1, then at the constant', () => {
  // take(1) makes a pool of 64; only take(1) then take(64) (refilled) or take(65) (made anew) tell
  // the refill's and the growth's conditions from their mutants. The bytes are random: the test
  // asserts their count.
  const files = [
    {
      path: 'pool.js',
      content: `const crypto = require('crypto');
const FACTOR = 64;
let pool, offset;
exports.take = (n) => {
  if (!pool || pool.length < n) {
    pool = Buffer.allocUnsafe(n * FACTOR);
    crypto.randomFillSync(pool);
    offset = 0;
  } else if (offset + n > pool.length) {
    crypto.randomFillSync(pool);
    offset = 0;
  }
  offset += n;
  return pool.subarray(offset - n, offset);
};
`,
    },
  ];
  const { tests } = generated(files, 60000, '__tests__/pool.test.js');
  assert.match(
    tests,
    /take\(1\)\)[^\n]*\n\s*expect\(pool\.take\(6[45]\)\)\.toEqual\(expect\.objectContaining\(\{ length: 6[45] \}\)\)/,
    tests,
  );
});

test('a number the code coerces (`n -= 0`) is also passed as its text', () => {
  // Only a string tells `n -= 0` from `n += 0`: '3' + 0 is '30'.
  const files = [
    { path: 'pad.js', content: "exports.pad = (text, n) => {\n  n -= 0;\n  return text + '.'.repeat(n);\n};\n" },
  ];
  const { tests } = generated(files, 60000, '__tests__/pad.test.js');
  assert.match(tests, /pad\('[^']*', '\d+'\)/, tests);
});

test('a string that differs between runs is asserted by the ends both share, cut back to a separator', () => {
  const { mergeRuns } = require('../../src/generate/search/stability');
  const { valueSource } = require('../../src/generate/writing/value-source');
  const merged = (a, b) =>
    mergeRuns(
      { outcomes: [{ kind: 'return', value: { t: 'string', v: a } }], effects: [], keys: [] },
      { outcomes: [{ kind: 'return', value: { t: 'string', v: b } }], effects: [], keys: [] },
    ).outcomes[0].value;
  // The years share '202': a test asserting it would fail in 2030.
  const stamp = merged('job@2026-11-25T03:40:00.123Z', 'job@2027-12-30T06:47:11.623Z');
  assert.equal(valueSource(stamp), 'expect.stringMatching(/^job@[\\s\\S]*$/)');
  assert.equal(valueSource(merged('out/a1.log', 'out/b2.log')), 'expect.stringMatching(/^out\\/[\\s\\S]*\\.log$/)');
  assert.equal(valueSource(merged('k3j2h1', 'k9a8b7')), 'expect.any(String)');
  const run = (v) => ({
    ok: true,
    disturbances: [],
    effects: [],
    outcomes: [{ kind: 'return', value: { t: 'string', v } }],
  });
  const expected = { outcomes: [{ kind: 'return', value: stamp }], effects: [] };
  assert.equal(matchesRun(expected, run('job@2031-01-01T00:00:00.000Z')), true);
  assert.equal(
    matchesRun(expected, run('@2031-01-01T00:00:00.000Z')),
    false,
    'a mutant that drops the label is caught',
  );
});

test('regex mutants are the ones Stryker makes (an anchor dropped, a class or escape negated, a quantifier dropped); table entries know their row', () => {
  const code = `const rules = [[/^(\\d+)\\s*[a-z]+$/i, 'unit'], [/(bu)s$/i, '$1ses']];
const names = { NO: 'Norway', SE: 'Sweden' };
module.exports = (text) => text;
`;
  const mutants = mutantsOf(code);
  const regexes = mutants.filter((mutant) => mutant.mutator === 'Regex').map((mutant) => mutant.replacement);
  for (const expected of [
    '/(\\d+)\\s*[a-z]+$/i',
    '/^(\\d+)\\s*[a-z]+/i',
    '/^(\\d+)\\s*[^a-z]+$/i',
    '/^(\\D+)\\s*[a-z]+$/i',
    '/^(\\d)\\s*[a-z]+$/i',
    '/(bu)s/i',
  ]) {
    assert.ok(regexes.includes(expected), `${expected} among ${regexes.join(' ')}`);
  }
  const emptied = (value) => mutants.find((mutant) => mutant.mutator === 'StringLiteral' && mutant.probe === value);
  assert.deepEqual(emptied('$1ses').row, { strings: [], regexes: [{ pattern: '(bu)s$', flags: 'i' }] });
  assert.deepEqual(
    emptied('Norway').row,
    { strings: ['NO', 'SE', 'Sweden'], regexes: [] },
    'the keys of an object table, and its other entries',
  );
  assert.equal(mutants.find((mutant) => mutant.replacement === '/(bu)s/i').regex.variant, '(bu)s');
});

test('a literal holding values read at run time is a record, not a table row; undefined is a table entry', () => {
  const code = `const preference = ['nginx', 'apache', undefined, 'iana'];
module.exports = (str, i) => [{ type: 'NAME', index: i, value: str }, preference];
`;
  const emptied = (value) =>
    mutantsOf(code).find((mutant) => mutant.mutator === 'StringLiteral' && mutant.probe === value);
  assert.equal(emptied('NAME').row, null);
  assert.deepEqual(emptied('nginx').row, { strings: ['apache', 'iana'], regexes: [] });
});

test('a table of rules and a table of names get a lookup for each entry the sampled mutants check', () => {
  // One call covers every line: only words that hit a rule's regex, or the key of a name, tell an
  // emptied replacement or a changed regex from the original.
  const files = [
    {
      path: 'words.js',
      content: `const rules = [
  [/s$/i, 's'],
  [/(octop|vir)us$/i, '$1i'],
  [/([^aeiouy]|qu)y$/i, '$1ies'],
];
const countries = { NO: 'Norway', SE: 'Sweden' };
exports.plural = function plural(word) {
  for (let i = rules.length - 1; i >= 0; i--) {
    if (rules[i][0].test(word)) return word.replace(rules[i][0], rules[i][1]);
  }
  return word + 's';
};
exports.country = function country(code) {
  return countries[String(code).toUpperCase()] || null;
};
`,
    },
  ];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 60000 }) });
  const result = JSON.parse(output.stdout.toString());
  const tests = result.files.find((file) => file.path === '__tests__/words.test.js').content;
  for (const plural of ['i', 'ies'])
    assert.match(
      tests,
      new RegExp(`plural\\('[^']*'\\)\\)\\.toBe\\('[^']*${plural}'\\)`),
      `a word ending in -${plural}:\n${tests}`,
    );
  for (const name of ['Norway', 'Sweden'])
    assert.match(tests, new RegExp(`\\)\\)\\.toBe\\('${name}'\\)`), `${name}:\n${tests}`);
});

test('a list of words gets a lookup of each word a sampled mutant empties: the entry itself is the input', () => {
  const files = [
    {
      path: 'words.js',
      content: `const uncountable = new Set();
['advice', 'bison', 'deer', 'fish'].forEach((word) => uncountable.add(word));
exports.plural = (word) => (uncountable.has(String(word).toLowerCase()) ? word : word + 's');
`,
    },
  ];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 60000 }) });
  const tests = JSON.parse(output.stdout.toString()).files.find(
    (file) => file.path === '__tests__/words.test.js',
  ).content;
  for (const word of ['advice', 'bison', 'deer', 'fish'])
    assert.match(tests, new RegExp(`plural\\('${word}'\\)\\)\\.toBe\\('${word}'\\)`), tests);
});

test('a table larger than the mutant sample gets a lookup of every entry, whole outputs asserted, 25 lookups a test', () => {
  // 400 names: 160 sampled mutants reach every 2.5th entry at most; the row sweep asks for the
  // entries in order, each test asserting what the lookup returns.
  const names = Array.from({ length: 400 }, (_, i) => `  c${i}: 'Name ${i}',`).join('\n');
  const files = [
    {
      path: 'names.js',
      content: `const names = {\n${names}\n};\nexports.nameOf = (code) => names[String(code).toLowerCase()] || null;\n`,
    },
  ];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 60000 }) });
  const tests = JSON.parse(output.stdout.toString()).files.find(
    (file) => file.path === '__tests__/names.test.js',
  ).content;
  for (let i = 0; i < 400; i++)
    assert.match(
      tests,
      new RegExp(`nameOf\\('c${i}'\\)\\)\\.toBe\\('Name ${i}'\\)`),
      `entry ${i}:\n${tests.slice(0, 3000)}`,
    );
  // Lookups asked in batches: 25 calls a test, not a test per entry.
  const count = tests.match(/\btest\(/g).length;
  assert.ok(count <= 400 / 25 + 5, `${count} tests`);
  assert.match(tests, /test\('returns "Name \d+" for "c\d+", and what 24 other inputs give'/);
});

test('a count a promise-returning call gives back is read once its promise resolved', () => {
  // `fn()` rejecting and `fn(task)` resolving reach the same lines; only reading activeCount after
  // awaited calls (one, or several settled together) tells `active--` from `active++`, and a
  // rejection ends a test's steps.
  const files = [
    {
      path: 'limiter.js',
      content: `module.exports = function limiter(max) {
  let active = 0;
  const run = async (task) => {
    active++;
    try {
      return await task();
    } finally {
      active--;
    }
  };
  Object.defineProperty(run, 'activeCount', { get: () => active });
  return run;
};
`,
    },
  ];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 60000 }) });
  const result = JSON.parse(output.stdout.toString());
  const tests = result.files.find((file) => file.path === '__tests__/limiter.test.js').content;
  assert.match(
    tests,
    /(await expect\(fn\(\w+\)\)\.resolves\.toBe\('done'\)|await expect\(settleOrder\([^)]*\)\)\.resolves\.toEqual\(\[[^;]*\]\));\n\s*expect\(fn\.activeCount\)\.toBe\(0\);/,
    tests,
  );
  assert.equal(result.summary.mutation.killed, result.summary.mutation.sampled, JSON.stringify(result.summary));
});

test('calls left in flight at once are settled together: counts read meanwhile, the order they settle in', () => {
  // A limiter that runs one task at a time: only calls in flight at once show that the second
  // waits for the first (a mutant that starts it at once settles it first), that the queue
  // holds them meanwhile, and that the next one starts when one ends.
  const files = [
    {
      path: 'limiter.js',
      content: `module.exports = function limiter(concurrency) {
  if (!(concurrency >= 1)) throw new TypeError('concurrency must be at least 1');
  const waiting = [];
  let active = 0;
  const next = () => {
    active--;
    if (waiting.length > 0) waiting.shift()();
  };
  const run = async (task, resolve) => {
    active++;
    const result = (async () => task())();
    resolve(result);
    try {
      await result;
    } catch {}
    next();
  };
  const limit = (task) =>
    new Promise((resolve) => {
      waiting.push(run.bind(null, task, resolve));
      (async () => {
        await Promise.resolve();
        if (active < concurrency && waiting.length > 0) waiting.shift()();
      })();
    });
  Object.defineProperties(limit, {
    activeCount: { get: () => active },
    pendingCount: { get: () => waiting.length },
  });
  return limit;
};
`,
    },
  ];
  const { result, tests } = generated(files, 60000, '__tests__/limiter.test.js');
  // Three calls launched, the first with a task that finishes later; the queue read meanwhile.
  assert.match(
    tests,
    /const pending = fn\(\w+\);\n\s*const \w+ = jest\.fn\(\(\) => 'done'\);\n\s*const pending2 = fn\(/,
    tests,
  );
  assert.match(tests, /expect\(fn\.pendingCount\)\.toBe\(3\);/, tests);
  // They settle in turn, the slow first one first.
  assert.match(
    tests,
    /await expect\(settleOrder\(\[pending, pending2, pending3\]\)\)\.resolves\.toEqual\(\[\n\s*\[0, 'resolved', 'done'\],\n\s*\[1, 'resolved', 'done'\],/,
    tests,
  );
  assert.match(tests, /async function settleOrder\(promises\)/, tests);
  // Alive may stay only `waiting.length > 0` made `>= 0` (or true) in next() and the dequeue:
  // their only effect is a rejection no one handles, which fails no Jest test.
  // In the dequeue it is also forced true as an operand of `&&` (its own mutant, as in Stryker).
  const { killed, sampled } = result.summary.mutation;
  assert.ok(killed >= sampled - 4, JSON.stringify(result.summary));
});

test('the mutant phase has the time the search left, not a fixed few seconds', () => {
  // The search covers this module at once. Each of the 150 `* 1` lines holds a mutant (`/ 1`)
  // that no scenario kills and that costs the phase dozens of runs, about 9 s of budget time in
  // all; only a call at exactly 10, found for the last mutant in the file, tells `>` from `>=`.
  // The wall limit lets the budget stretch as far as a busy machine needs.
  const lines = Array.from({ length: 150 }, () => '  value = value * 1;').join('\n');
  const files = [
    {
      path: 'same.js',
      content: `exports.same = function same(n) {
  let value = n;
${lines}
  return value;
};
exports.size = function size(n) {
  return n > 10 ? 'big' : 'small';
};
`,
    },
  ];
  const output = spawnSync(process.execPath, [GENERATE], {
    input: JSON.stringify({ files, timeBudgetMs: 40000, wallLimitMs: 20 * 60 * 1000 }),
  });
  const result = JSON.parse(output.stdout.toString());
  const tests = result.files.find((file) => file.path === '__tests__/same.test.js').content;
  assert.match(tests, /size\(10\)\)\.toBe\('small'\)/, tests);
});

test('the tests of a module that keeps state between calls each load it afresh, as each scenario ran', () => {
  // One test of next() passes in any order; a module's state shared between tests can still make
  // a later test loop forever (nanoid's pool offset), which no retry of failing tests recovers.
  const files = [{ path: 'counter.js', content: 'let count = 0;\nexports.next = () => ++count;\n' }];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 20000 }) });
  const result = JSON.parse(output.stdout.toString());
  const tests = result.files.find((file) => file.path === '__tests__/counter.test.js').content;
  assert.match(
    tests,
    /beforeEach\(\(\) => \{\n\s*jest\.resetModules\(\);\n\s*counter = require\('\.\.\/counter'\);/,
    tests,
  );
  assert.match(tests, /counter\.next\(\)\)\.toBe\(1\)/, tests);
});

test('the row sweep of a large table leaves half the mutant phase to the sampled mutants', async () => {
  // A search that ran to its deadline leaves the phase about 2 s; a table of 300 names alone
  // would take all of it, and no sampled mutant (`n > 10` -> `n >= 10`) would be checked. Runs
  // here cost 200 ms of a clock the test moves.
  const { Strengthener } = require('../../src/generate/selection/strengthen');
  const names = Array.from({ length: 300 }, (_, i) => `n${i}: 'Name ${i}'`).join(', ');
  const code = `const names = { ${names} };
exports.get = (key) => names[key] || null;
exports.size = (n) => (n > 10 ? 'big' : 'small');
`;
  const file = loadedFile('/package/names.js', code);
  const target = { file: 'names.js' };
  const returned = (v) => ({ kind: 'return', value: { t: 'string', v } });
  let now = 1000;
  const search = fakeSearch(async (_target, scenario, _shift, override) => {
    now += 200;
    const outcomes = scenario.steps.map((step) => returned(override ? 'mutated' : `Name of ${step.args[0].value}`));
    return { ok: true, usable: true, disturbances: [], effects: outcomes.map(() => []), outcomes, keys: ['0:s1'] };
  });
  const lookup = {
    target,
    scenario: {
      targetId: 0,
      steps: [{ op: 'call', callee: 'get', args: [{ kind: 'atom', type: 'string', value: 'n0' }] }],
    },
    outcomes: [returned('Name 0')],
    effects: [[]],
    keys: new Set(['0:s1']),
    rendered: { steps: [] },
  };
  const { mutation } = await onClock(
    () => now,
    () => new Strengthener(search, [file]).run([lookup], [], now + 2000, { rowMs: 2500 }),
  );
  assert.ok(mutation.total > 0, JSON.stringify(mutation));
});

test('a mutant phase cut short by its deadline has checked mutants from the whole file, its end too', async () => {
  // 100 mutants no scenario kills (`* 1` -> `/ 1`), each costing three runs of 200 ms of a clock
  // the test moves, then `n > 10` at the end of the file, which only size(10) (a scenario the
  // search found but did not choose) tells from `>=`. The phase has time for about 20 mutants:
  // in source order it never reaches the last line.
  const { Strengthener } = require('../../src/generate/selection/strengthen');
  const lines = Array.from({ length: 100 }, () => '  value = value * 1;').join('\n');
  const code = `exports.same = function same(n) {
  let value = n;
${lines}
  return value;
};
exports.size = (n) => Number(n > 10);
`;
  const file = loadedFile('/package/size.js', code);
  const run = (source, callee, arg) => {
    const module = { exports: {} };
    new Function('module', 'exports', source)(module, module.exports);
    return module.exports[callee](arg);
  };
  let now = 1000;
  const search = fakeSearch(async (_target, scenario, _shift, override) => {
    now += 200;
    const [step] = scenario.steps;
    const value = run(override ? override.code : code, step.callee, step.args[0].value);
    const outcomes = [{ kind: 'return', value: { t: 'number', v: value } }];
    return { ok: true, usable: true, disturbances: [], effects: [[]], outcomes, keys: ['0:s1'] };
  });
  const entry = (callee, arg) => ({
    target: { file: 'size.js', callee },
    scenario: { targetId: 0, steps: [{ op: 'call', callee, args: [{ kind: 'atom', type: 'number', value: arg }] }] },
    outcomes: [{ kind: 'return', value: { t: 'number', v: run(code, callee, arg) } }],
    effects: [[]],
    keys: new Set(['0:s1']),
    rendered: { steps: [] },
  });
  const boundary = entry('size', 10);
  const { entries, mutation } = await onClock(
    () => now,
    () =>
      new Strengthener(search, [file]).run([entry('same', 2), entry('size', 5)], [boundary], now + 12000, { rowMs: 0 }),
  );
  assert.ok(!mutation.complete && mutation.total < 40, JSON.stringify(mutation));
  assert.ok(entries.includes(boundary), JSON.stringify(mutation));
});

test('random text of a length the code spells is asserted by its length, other random text by its type', () => {
  const { mergeRuns } = require('../../src/generate/search/stability');
  const { valueSource } = require('../../src/generate/writing/value-source');
  const run = (v) => ({
    ok: true,
    disturbances: [],
    effects: [],
    keys: [],
    outcomes: [{ kind: 'return', value: { t: 'string', v } }],
  });
  const merged = (a, b, spelled) =>
    mergeRuns(run(a), run(b), { knownLength: (n) => spelled.includes(n) }).outcomes[0].value;
  // nanoid(): 21 characters, and `size = 21` in the module.
  const id = merged('V1StGXR8_Z5jdHi6B-myT', 'Uakgb_J5m9g-0JDMbcJqL', [128, 21, 63]);
  assert.equal(valueSource(id), 'expect.stringMatching(/^[\\s\\S]{21}$/)');
  const expected = { outcomes: [{ kind: 'return', value: id }], effects: [] };
  assert.equal(matchesRun(expected, run('kd8J2mZ_x0P-aa71LqQ9w')), true);
  assert.equal(matchesRun(expected, run('kd8J2mZ_x0P-aa71LqQ9wX')), false, 'a mutant that makes it 22 long is caught');
  // Math.random().toString(36).slice(2): 10 or 11 characters, a length no literal of the code spells.
  assert.equal(valueSource(merged('k3j2h1x9a8', 'p0q9r8s7t6', [2, 36])), 'expect.any(String)');
});

test('random text is asserted to be drawn from the alphabet the code spells; random bytes by their count', () => {
  const { mergeRuns } = require('../../src/generate/search/stability');
  const { valueSource } = require('../../src/generate/writing/value-source');
  const run = (value) => ({ ok: true, disturbances: [], effects: [], keys: [], outcomes: [{ kind: 'return', value }] });
  const urlAlphabet = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
  const spelled = [urlAlphabet, 'abcdefghijklmnopqrstuvwxyz', 'Expected a number'];
  // The smallest spelled string that holds every character both runs gave.
  const knownAlphabet = (text) =>
    spelled
      .filter((alphabet) => [...text].every((char) => alphabet.includes(char)))
      .sort((a, b) => a.length - b.length)[0] || null;
  const known = { knownLength: (n) => n === 21, knownAlphabet };
  const text = (v) => ({ t: 'string', v });
  const id = mergeRuns(run(text('V1StGXR8_Z5jdHi6B-myT')), run(text('Uakgb_J5m9g-0JDMbcJqL')), known).outcomes[0].value;
  assert.equal(valueSource(id), 'expect.stringMatching(/^[0-9A-Z_a-z-]{21}$/)');
  const expected = { outcomes: [{ kind: 'return', value: id }], effects: [] };
  assert.equal(matchesRun(expected, run(text('kd8J2mZ_x0P-aa71LqQ9w'))), true);
  assert.equal(matchesRun(expected, run(text('kd8J2mZ_x0P-aa71LqQ9$'))), false, 'a character from elsewhere is caught');
  // Lowercase only: the smaller alphabet.
  const lower = mergeRuns(run(text('qwertyuiopasdfghjklzx')), run(text('mnbvcxzlkjhgfdsapoiuy')), known).outcomes[0]
    .value;
  assert.equal(valueSource(lower), 'expect.stringMatching(/^[a-z]{21}$/)');
  // Random bytes: the same count in both runs is asserted, their content is not.
  const bytes = (values) => ({ t: 'buffer', bytes: values });
  const buffer = mergeRuns(run(bytes([1, 2, 3])), run(bytes([9, 8, 7])), known).outcomes[0].value;
  assert.equal(valueSource(buffer), 'expect.objectContaining({ length: 3 })');
  const counted = { outcomes: [{ kind: 'return', value: buffer }], effects: [] };
  assert.equal(matchesRun(counted, run(bytes([4, 5, 6]))), true);
  assert.equal(matchesRun(counted, run(bytes([]))), false, 'a mutant that returns no bytes is caught');
});

test('a promise a mutant leaves rejected with no handler kills nothing: no Jest test fails for it', () => {
  const { survives } = require('../../src/generate/selection/strengthen');
  const reply = (disturbances) => ({
    ok: true,
    disturbances,
    effects: [],
    keys: [],
    outcomes: [{ kind: 'resolve', value: { t: 'string', v: 'done' } }],
  });
  const expected = { outcomes: [{ kind: 'resolve', value: { t: 'string', v: 'done' } }], effects: [] };
  assert.equal(survives(expected, reply(['unhandled rejection queue.dequeue(...) is not a function'])), true);
  assert.equal(survives(expected, reply(['process.exit(1)'])), false);
  assert.equal(survives(expected, reply(['uncaught boom'])), false);
});

test('a type check is told from its mutants by the same text in an array', () => {
  // `!type || typeof type !== 'string'` forced false, `||` made `&&` or its block emptied: only
  // a value that is no string but reads as one (`['text/html']`) gets past the check then.
  const files = [
    {
      path: 'media.js',
      content: `const CHARSETS = { 'text/html': 'UTF-8', 'text/plain': 'UTF-8', 'image/png': '' };
exports.charset = function charset(type) {
  if (!type || typeof type !== 'string') {
    return false;
  }
  const match = /^\\s*([^;\\s]*)/.exec(type);
  const found = match && CHARSETS[match[1].toLowerCase()];
  return found || false;
};
`,
    },
  ];
  const { tests } = generated(files, 30000, '__tests__/media.test.js');
  assert.match(tests, /charset\(\['text\/(html|plain)'\]\)\)\.toBe\(false\)/, tests);
});

test('a table whose entries sampled mutants change, more than a test reads one by one, is asserted whole', () => {
  // 60 colours: each emptied string is a mutant of its own, and a test reading the size and
  // three entries would kill three of them.
  const colours = Array.from({ length: 60 }, (_, i) => `'#${(i * 4099).toString(16).padStart(6, '0').toUpperCase()}'`);
  const files = [{ path: 'colours.js', content: `exports.colours = [\n  ${colours.join(',\n  ')},\n];\n` }];
  const { result, tests } = generated(files, 30000, '__tests__/colours.test.js');
  for (const colour of [colours[1], colours[17], colours[44]])
    assert.ok(tests.includes(colour), `${colour} in\n${tests}`);
  assert.ok(result.summary.mutation.killed >= 50, JSON.stringify(result.summary));
});

test('a table too large to write whole reads the parts a sampled mutant changes, beside its sampled ones', () => {
  // 400 types (more than the 300 lines a table is written whole in): the test reads its size and 3
  // of them; `ext === 'ext45'` emptied or flipped changes ext45 alone, which only a test reading
  // ext45 tells.
  const files = [
    {
      path: 'types.js',
      content: `const db = {};
for (let i = 0; i < 400; i++) db['ext' + i] = i % 7 === 3 ? 'text/plain' : 'application/x-' + i;
exports.types = {};
function populate(types) {
  for (const ext of Object.keys(db)) {
    types[ext] = db[ext];
    if (ext === 'ext45') types[ext] = 'image/special';
  }
}
populate(exports.types);
`,
    },
  ];
  const output = spawnSync(process.execPath, [GENERATE], { input: JSON.stringify({ files, timeBudgetMs: 20000 }) });
  const result = JSON.parse(output.stdout.toString());
  const tests = result.files.find((file) => file.path === '__tests__/types.test.js').content;
  assert.match(tests, /expect\(Object\.keys\(result\)\)\.toHaveLength\(400\);/, tests);
  assert.match(tests, /expect\(result\.ext45\)\.toBe\('image\/special'\);/, tests);
});
