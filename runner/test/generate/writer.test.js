'use strict';
// Writing tests: test file locations, assertions for each kind of outcome, names, imports.

const test = require('node:test');
const assert = require('node:assert/strict');
const { testFileFor, prepareTestCase, writeTestFile } = require('../../src/generate/writing/test-writer');
const { atom, mockOf } = require('../../src/generate/search/candidate');
const { describeValue } = require('../../src/generate/execution/child/snapshot');

const target = { label: 'ms', file: 'src/ms.js' };
const callEntry = (args, outcome, effects = [[]]) => ({
  target,
  scenario: {
    targetId: 't',
    steps: [
      {
        op: 'call',
        callee: 'ms',
        args,
        params: [
          { name: 'value', hint: null },
          { name: 'options', hint: null },
        ],
      },
    ],
  },
  outcomes: [outcome],
  effects,
});

function body(entry) {
  const testCase = prepareTestCase(entry, ['ms'], new Map());
  return { name: testCase.name, lines: testCase.lines, async: testCase.async };
}

test('places the test of a/b.js in a/__tests__/b.test.js, requiring ../b', () => {
  assert.deepEqual(testFileFor('src/math.js', new Set()), {
    testPath: 'src/__tests__/math.test.js',
    request: '../math',
  });
  assert.deepEqual(testFileFor('index.mjs', new Set()), {
    testPath: '__tests__/index.test.js',
    request: '../index.mjs',
  });
  assert.deepEqual(testFileFor('lib/a.cjs', new Set(['lib/__tests__/a.test.js'])), {
    testPath: 'lib/__tests__/a-cjs.test.js',
    request: '../a.cjs',
  });
});

test('asserts returned values with toBe, toBeNaN and toEqual, and names the test after them', () => {
  assert.deepEqual(body(callEntry([atom.number(60000)], { kind: 'return', value: describeValue('1m') })), {
    name: 'returns "1m" for 60000',
    lines: ["expect(ms(60000)).toBe('1m');"],
    async: false,
  });
  assert.deepEqual(body(callEntry([atom.string('x')], { kind: 'return', value: describeValue(NaN) })).lines, [
    "expect(ms('x')).toBeNaN();",
  ]);
  assert.deepEqual(body(callEntry([], { kind: 'return', value: describeValue({ a: [1, -0] }) })).lines, [
    'expect(ms()).toEqual({ a: [1, -0] });',
  ]);
});

test("asserts a returned function so that one of Node's own realm passes too", () => {
  // In Jest the test's `Function` is its sandbox's, while functions of Node's modules (`fs.mkdir`,
  // handed back by `optsArg()`) come from the outer realm: `toBeInstanceOf(Function)` fails on them.
  const { lines } = body(callEntry([], { kind: 'return', value: describeValue(() => 1) }));
  const { expect } = require('expect');
  const vm = require('node:vm');
  const ms = () => vm.runInNewContext('(function mkdir() {})');
  new Function('expect', 'ms', lines.join('\n'))(expect, ms);
});

test('asserts errors, promises and iterators', () => {
  const error = describeValue(new TypeError('val is not a string'));
  assert.deepEqual(body(callEntry([atom.undefined()], { kind: 'throw', value: error })), {
    name: 'throws "val is not a string" for undefined',
    lines: [
      "expect(() => ms(undefined)).toThrow(expect.objectContaining({ name: 'TypeError', message: 'val is not a string' }));",
    ],
    async: false,
  });
  assert.deepEqual(body(callEntry([atom.number(1)], { kind: 'resolve', value: describeValue({ id: 1 }) })), {
    name: 'resolves to { id: 1 } for 1',
    lines: ['await expect(ms(1)).resolves.toEqual({ id: 1 });'],
    async: true,
  });
  assert.deepEqual(
    body(callEntry([atom.number(-1)], { kind: 'reject', value: describeValue(new Error('no')) })).lines,
    ["await expect(ms(-1)).rejects.toThrow(expect.objectContaining({ name: 'Error', message: 'no' }));"],
  );
  const coded = Object.assign(new Error('gone'), { code: 'ENOENT' });
  assert.deepEqual(body(callEntry([atom.number(2)], { kind: 'throw', value: describeValue(coded) })).lines, [
    "expect(() => ms(2)).toThrow(expect.objectContaining({ name: 'Error', message: 'gone', code: 'ENOENT' }));",
  ]);
  assert.deepEqual(
    body(callEntry([atom.number(3)], { kind: 'yield', iterated: 'sync', done: true, value: describeValue([0, 1, 2]) }))
      .lines,
    ['expect([...ms(3)]).toEqual([0, 1, 2]);'],
  );
});

test('declares mock arguments and asserts the calls they received', () => {
  const calls = describeValue([[1], [2]]);
  const mockEffect = {
    name: 'callback',
    before: describeValue(() => {}),
    after: describeValue(() => {}),
    mocks: [{ path: [], calls }],
  };
  const entry = callEntry([atom.number(2), mockOf()], { kind: 'return', value: describeValue(undefined) }, [
    [mockEffect],
  ]);
  entry.scenario.steps[0].params = [{ name: 'count' }, { name: 'callback' }];
  assert.deepEqual(body(entry).lines, [
    'const callback = jest.fn();',
    'expect(ms(2, callback)).toBeUndefined();',
    'expect(callback.mock.calls).toEqual([[1], [2]]);',
  ]);
});

test('writes one describe per export and imports ES module bindings', () => {
  const cases = [
    {
      describe: 'formatDate',
      name: 'returns "2020-01-02" for a Date',
      lines: ["expect(formatDate(new Date(0))).toBe('1970-01-01');"],
      async: false,
      helpers: new Set(),
    },
    {
      describe: 'isWeekend',
      name: 'returns false for a Date',
      lines: ['expect(isWeekend(new Date(0))).toBe(false);'],
      async: false,
      helpers: new Set(),
    },
  ];
  const spec = {
    sourcePath: 'src/date.mjs',
    request: '../date.mjs',
    esm: true,
    bindings: [
      { name: 'formatDate', from: 'default' },
      { name: 'isWeekend', from: 'named', key: 'isWeekend' },
      { name: 'unused', from: 'named', key: 'unused' },
    ],
  };
  const text = writeTestFile(spec, cases);
  assert.match(text, /^\/\/ Tests generated by Vouch for src\/date\.mjs\./);
  assert.match(text, /\nimport formatDate, \{ isWeekend \} from '\.\.\/date\.mjs';\n/);
  assert.match(
    text,
    /describe\('formatDate', \(\) => \{\n {2}test\('returns "2020-01-02" for a Date', \(\) => \{\n {4}expect\(formatDate/,
  );
  assert.equal(text.match(/describe\(/g).length, 2);
});

test('gives each value a test holds its own name', () => {
  class Point {
    constructor() {
      this.x = 1;
    }
  }
  const point = { kind: 'return', value: describeValue(new Point()) };
  const step = { op: 'call', callee: 'ms', args: [], params: [] };
  const entry = {
    target,
    scenario: { targetId: 't', steps: [step, step] },
    outcomes: [point, point],
    effects: [[], []],
  };
  const testCase = prepareTestCase(entry, ['ms'], new Map([['Point', 'Point']]));
  assert.deepEqual(testCase.lines, [
    'const result = ms();',
    'expect(result).toBeInstanceOf(Point);',
    'expect(result).toEqual({ x: 1 });',
    'const result2 = ms();',
    'expect(result2).toBeInstanceOf(Point);',
    'expect(result2).toEqual({ x: 1 });',
  ]);
});

test('asserts an error message that quotes stack traces by its text before the first frame', () => {
  const aggregate = new Error(
    '\n    Error: callback failed\n        at mapper (/tmp/job/index.js:3:9)\n        at async Promise.all (index 0)',
  );
  assert.deepEqual(body(callEntry([atom.number(1)], { kind: 'reject', value: describeValue(aggregate) })).lines, [
    "await expect(ms(1)).rejects.toThrow(expect.objectContaining({ name: 'Error', message: expect.stringContaining('\\n    Error: callback failed') }));",
  ]);
});

test('asserts messages quoting instrumented code by the text before it', () => {
  const quoted = describeValue(
    new TypeError("Cannot destructure property 'type' of '((cov_1xqe64bgy0(...).s[11]++) , obj)' as it is null."),
  );
  assert.deepEqual([quoted.message, quoted.messagePrefix], ["Cannot destructure property 'type' of", true]);
  // V8 names an instrumented expression "(intermediate value)"; a plain run quotes its source.
  const iterated = describeValue(
    new TypeError('yield* (intermediate value)(intermediate value)(intermediate value) is not iterable'),
  );
  assert.deepEqual([iterated.message, iterated.messagePrefix], ['yield*', true]);
});

test('a table too large to read whole is asserted by its size and by its first, middle and last parts', () => {
  const names = Array.from({ length: 101 }, (_, i) => `country ${i}`);
  assert.deepEqual(body(callEntry([], { kind: 'return', value: describeValue(names) })).lines, [
    'const result = ms();',
    'expect(result).toHaveLength(101);',
    "expect(result[0]).toBe('country 0');",
    "expect(result[50]).toBe('country 50');",
    "expect(result[100]).toBe('country 100');",
  ]);
  const byCode = Object.fromEntries(names.map((name, i) => [i ? `c${i}` : 'first-code', { name }]));
  assert.deepEqual(body(callEntry([], { kind: 'return', value: describeValue(byCode) })).lines.slice(1), [
    'expect(Object.keys(result)).toHaveLength(101);',
    "expect(result['first-code']).toEqual({ name: 'country 0' });",
    "expect(result.c50).toEqual({ name: 'country 50' });",
    "expect(result.c100).toEqual({ name: 'country 100' });",
  ]);
});

test('an exported table of plain entries is asserted whole, up to 300 lines; a richer one by its parts', () => {
  const readEntry = (value) => ({
    target,
    scenario: { targetId: 't', steps: [{ op: 'read', callee: 'ms.colors' }] },
    outcomes: [{ kind: 'return', value: describeValue(value) }],
    effects: [[]],
  });
  const colors = Array.from({ length: 76 }, (_, i) => `#${String(i).padStart(6, '0')}`);
  const lines = body(readEntry(colors)).lines;
  assert.equal(lines[0], 'const result = ms.colors;');
  assert.ok(lines[1].startsWith("expect(result).toEqual([\n      '#000000',\n"));
  assert.equal(lines.length, 2);
  assert.equal(lines[1].split('\n').length, 78);
  const codes = Object.fromEntries(colors.map((color, i) => [`c${i}`, color]));
  assert.equal(body(readEntry(codes)).lines[1].split('\n').length, 78);
  // Too long to read whole, or entries that are objects: the size and some parts, as before.
  assert.equal(body(readEntry(Array.from({ length: 400 }, (_, i) => i))).lines[1], 'expect(result).toHaveLength(400);');
  const rows = colors.map((color) => ({ color }));
  assert.equal(body(readEntry(rows)).lines[1], 'expect(result).toHaveLength(76);');
});

test("an emitter too large to read whole is asserted by its Object.keys count, Node's fields included", () => {
  const { EventEmitter } = require('node:events');
  class Program extends EventEmitter {
    constructor() {
      super();
      for (let i = 0; i < 45; i++) this[`_option${i}`] = i;
    }
  }
  const program = new Program();
  const lines = body(callEntry([], { kind: 'return', value: describeValue(program) })).lines;
  // The description leaves out _events, _eventsCount and _maxListeners; the test's Object.keys has them.
  assert.equal(lines[1], `expect(Object.keys(result)).toHaveLength(${Object.keys(program).length});`);
  assert.equal(Object.keys(program).length, 48);
  assert.equal(lines[2], 'expect(result._option0).toBe(0);');
  // Written whole, it is matched as containing its entries, even where Node sets no symbol on it.
  const small = describeValue(Object.assign(new EventEmitter(), { size: 1 }));
  const { valueSource } = require('../../src/generate/writing/value-source');
  assert.equal(valueSource({ ...small, symbols: false }), 'expect.objectContaining({ size: 1 })');
});

test('a test file that sets switches of the process or listens on it puts them back after each test', () => {
  const spec = {
    sourcePath: 'index.js',
    request: '../index',
    esm: false,
    bindings: [{ name: 'depd', from: 'module' }],
    processSwitches: ['process.noDeprecation', 'process.stderr.isTTY'],
    processEvents: ['deprecation'],
  };
  const cases = [
    {
      describe: 'depd',
      name: 'returns a function after setting process.noDeprecation to true',
      lines: ['process.noDeprecation = true;', "expect(depd('a')).toEqual(expect.any(Function));"],
      async: false,
      helpers: new Set(),
    },
  ];
  const text = writeTestFile(spec, cases);
  const start = text.indexOf('const processSwitches');
  const end = text.indexOf('});', text.indexOf('const processListeners')) + 3;
  assert.ok(start > 0 && text.indexOf('describe(') > end, text);
  const hooks = [];
  const stderrTTY = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
  new Function('afterEach', 'process', text.slice(start, end))((hook) => hooks.push(hook), process);
  process.noDeprecation = true;
  process.stderr.isTTY = 'set by a test';
  process.on('deprecation', () => {});
  hooks.forEach((hook) => hook());
  assert.equal(process.listenerCount('deprecation'), 0);
  assert.equal(Object.hasOwn(process, 'noDeprecation'), false);
  assert.deepEqual(Object.getOwnPropertyDescriptor(process.stderr, 'isTTY'), stderrTTY);
});
