'use strict';
// Value serialization: runtime values are described in the child and written back as the
// JavaScript literals (or Jest matchers) a test compares against.

const test = require('node:test');
const assert = require('node:assert/strict');
const vm = require('node:vm');
const { describeValue } = require('../../src/generate/execution/child/snapshot');
const { valueSource, Unassertable } = require('../../src/generate/writing/value-source');
const { mergeDescriptions } = require('../../src/generate/search/stability');
const { atom, arrayOf, objectOf, mockOf, toSource } = require('../../src/generate/search/candidate');

const roundTrip = (value) => vm.runInThisContext(`(${valueSource(describeValue(value))})`);

test('writes primitives exactly, including NaN, -0, Infinity, undefined and BigInt', () => {
  const cases = [
    [NaN, 'NaN'],
    [-0, '-0'],
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
    [undefined, 'undefined'],
    [null, 'null'],
    [12n, '12n'],
    [1.5, '1.5'],
    ['it\'s\n"x"', "'it\\'s\\n\"x\"'"],
    [true, 'true'],
  ];
  for (const [value, source] of cases) assert.equal(valueSource(describeValue(value)), source);
});

test('round-trips nested data, dates, regexes, maps, sets and buffers', () => {
  const value = {
    list: [1, 'two', [3]],
    when: new Date('2020-01-02T03:04:05.000Z'),
    pattern: /a\/b/gi,
    map: new Map([['k', { v: 1 }]]),
    set: new Set([1, 2]),
    bytes: Buffer.from('hi'),
    'odd-key': null,
  };
  const copy = roundTrip(value);
  assert.equal(copy.when.toISOString(), value.when.toISOString());
  assert.equal(String(copy.pattern), String(value.pattern));
  assert.deepEqual([...copy.map], [...value.map]);
  assert.deepEqual([...copy.set], [...value.set]);
  assert.deepEqual([...copy.bytes], [...value.bytes]);
  assert.deepEqual(copy.list, value.list);
  assert.equal(copy['odd-key'], null);
});

test('writes class instances as their own data and names the class', () => {
  class Point {
    constructor() {
      this.x = 1;
      this.y = 2;
    }
    get length() {
      return 3;
    }
  }
  const desc = describeValue(new Point());
  assert.equal(desc.ctor, 'Point');
  assert.equal(valueSource(desc), '{ x: 1, y: 2 }');
});

test('uses matchers for what has no literal: functions, symbols, cycles, invalid dates', () => {
  const cyclic = { name: 'loop' };
  cyclic.self = cyclic;
  assert.equal(
    valueSource(describeValue({ fn() {}, s: Symbol('s') })),
    '{ fn: expect.any(Function), s: expect.any(Symbol) }',
  );
  assert.equal(valueSource(describeValue(cyclic)), "{ name: 'loop', self: expect.anything() }");
  assert.equal(valueSource(describeValue(new Date(NaN))), 'expect.any(Date)');
  assert.equal(valueSource(describeValue(Symbol.for('app'))), "Symbol.for('app')");
});

test('asserts only the type of values that differ between two runs', () => {
  const merged = mergeDescriptions(describeValue({ id: 'a', at: 1 }), describeValue({ id: 'a', at: 2 }));
  assert.equal(valueSource(merged), "{ id: 'a', at: expect.any(Number) }");
  const undecidable = mergeDescriptions(describeValue(undefined), describeValue(3));
  assert.throws(() => valueSource(undecidable), Unassertable);
});

test('wraps long literals over several lines', () => {
  const long = describeValue({ first: 'a'.repeat(30), second: 'b'.repeat(30), third: [1, 2, 3] });
  assert.equal(
    valueSource(long, '    '),
    [
      '{',
      `      first: '${'a'.repeat(30)}',`,
      `      second: '${'b'.repeat(30)}',`,
      '      third: [1, 2, 3],',
      '    }',
    ].join('\n'),
  );
});

test('spells candidate inputs as source, mocks as jest.fn', () => {
  const options = objectOf([
    ['long', atom.boolean(true)],
    ['if-none-match', atom.string('*')],
  ]);
  assert.equal(toSource(options), "{ long: true, 'if-none-match': '*' }");
  assert.equal(toSource(arrayOf([atom.number(-0), atom.number(NaN), atom.bigint('5')])), '[-0, NaN, 5n]');
  assert.equal(toSource(mockOf({ returns: atom.string('x') })), "jest.fn(() => 'x')");
  assert.equal(toSource(mockOf({ returns: objectOf([['a', atom.number(1)]]) })), 'jest.fn(() => ({ a: 1 }))');
});

test("writes a function's arguments object as its items and length, which Jest tells from an array", () => {
  const { expect: jestExpect } = require('expect');
  const args = (function () {
    return arguments;
  })('a', 2);
  const source = valueSource(describeValue([args]));
  assert.equal(source, "[expect.objectContaining({ 0: 'a', 1: 2, length: 2 })]");
  const expected = vm.runInThisContext(`(function (expect) { return ${source}; })`)(jestExpect);
  jestExpect([args]).toEqual(expected);
  assert.throws(() =>
    jestExpect([
      (function () {
        return arguments;
      })('a'),
    ]).toEqual(expected),
  );
  assert.throws(() => jestExpect([['a', 2]]).toEqual(expected));
});

test('tries a mock function for a parameter nothing is known about (a handler that is only stored)', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Hint } = require('../../src/generate/analysis/hint');
  const pool = new InputPool({ strings: [], regexStrings: [], numbers: [], bigints: [] }, { ofType: () => [] }, null);
  assert.ok(pool.seeds(new Hint()).some((candidate) => candidate.kind === 'mock'));
});

test('tries a callback that changes the object it is handed for a function parameter (a recipe given a draft)', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Hint } = require('../../src/generate/analysis/hint');
  const pool = new InputPool({ strings: [], regexStrings: [], numbers: [], bigints: [] }, { ofType: () => [] }, null);
  const hint = new Hint();
  hint.addType('function');
  const { fn } = require('jest-mock');
  const changers = pool
    .seeds(hint)
    .filter((candidate) => candidate.kind === 'mock')
    .map((candidate) => vm.runInThisContext(`(function (jest) { return ${toSource(candidate)}; })`)({ fn }))
    .filter((callback) => {
      const draft = { a: 1 };
      try {
        callback(draft);
      } catch {
        return false;
      }
      return Object.keys(draft).length > 1;
    });
  assert.equal(changers.length, 1);
  // Handed no object, it does nothing and throws nothing, in strict code as in sloppy.
  assert.equal(changers[0](1), undefined);
  assert.equal(changers[0](null), undefined);
});

test('tries arrays of shaped items for a parameter read by index beside a property of its own (row[c].align, row.span)', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Hint } = require('../../src/generate/analysis/hint');
  const pool = new InputPool({ strings: [], regexStrings: [], numbers: [], bigints: [] }, { ofType: () => [] }, null);
  const row = new Hint();
  row.prop('span');
  row.at(['[]', 'align']).addType('string');
  const seeds = pool.seeds(row);
  assert.equal(seeds[0].kind, 'object', 'the object first');
  const items = seeds.filter((candidate) => candidate.kind === 'array').flatMap((candidate) => candidate.items);
  assert.ok(
    items.some((item) => item.kind === 'object' && item.entries.some(([key]) => key === 'align')),
    JSON.stringify(seeds),
  );
});

test('tries text with wide and astral characters for a string parameter (code that measures or splits text)', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Hint } = require('../../src/generate/analysis/hint');
  const pool = new InputPool({ strings: [], regexStrings: [], numbers: [], bigints: [] }, { ofType: () => [] }, null);
  const text = new Hint();
  text.addType('string');
  const values = pool.seeds(text).map((candidate) => candidate.value);
  assert.ok(
    values.some((value) => /[\u3000-\u9fff]/.test(value) && /[\ud800-\udbff]/.test(value)),
    JSON.stringify(values),
  );
});

test("a string parameter's first seeds match the regexes the module's graph holds, each regex's first sample in turn", () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Hint } = require('../../src/generate/analysis/hint');
  const literals = { strings: ['major', 'minor', 'patch'], regexStrings: [], numbers: [], bigints: [] };
  const version = { pattern: '^v?(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-([a-z]+))?$', flags: '' };
  const range = { pattern: '^(<|>)=?\\s*\\d+\\.\\d+$', flags: '' };
  const pool = new InputPool(literals, { ofType: () => [] }, null, [version, range]);
  const text = new Hint();
  text.addType('string');
  const first = pool
    .seeds(text)
    .map((candidate) => candidate.value)
    .slice(0, 8);
  assert.ok(
    first.some((value) => new RegExp(version.pattern).test(value)),
    JSON.stringify(first),
  );
  assert.ok(
    first.some((value) => new RegExp(range.pattern).test(value)),
    JSON.stringify(first),
  );
  assert.ok(first.includes('major'), JSON.stringify(first));
});

test('a string scanned character by character gets texts in the syntax of the characters it compares', () => {
  const { InputPool } = require('../../src/generate/search/input-pool');
  const { Hint } = require('../../src/generate/analysis/hint');
  const pool = new InputPool({ strings: [], regexStrings: [], numbers: [], bigints: [] }, { ofType: () => [] }, null);
  const text = new Hint();
  text.addType('string');
  ['*', '+', '?', '{', '}', ':', '(', ')', 'a'].forEach((char) => text.elementHint().addValue(char));
  const values = pool.seeds(text).map((candidate) => candidate.value);
  for (const expected of ['/:abc', '/{abc}', '/(abc)', '/*abc+'])
    assert.ok(values.includes(expected), `${expected} in ${JSON.stringify(values)}`);
  assert.ok(!values.some((value) => /^\/a/.test(value)), 'letters are not syntax');
  const plain = new Hint();
  plain.addType('string');
  ['a', 'b', '-'].forEach((char) => plain.elementHint().addValue(char));
  assert.ok(
    !pool.seeds(plain).some((candidate) => candidate.value === '/-abc'),
    'one punctuation character is no syntax',
  );
});

test('writes an error inside a value by name, message and code, which also matches errors from another realm', () => {
  const { expect: jestExpect } = require('expect');
  const coded = Object.assign(new TypeError('bad path'), { code: 'ERR_INVALID_ARG_TYPE' });
  const source = valueSource(describeValue({ error: coded }));
  assert.equal(
    source.replace(/\s+/g, ' '),
    "{ error: expect.objectContaining({ name: 'TypeError', message: 'bad path', code: 'ERR_INVALID_ARG_TYPE' }), }",
  );
  const foreign = vm.runInNewContext("Object.assign(new TypeError('bad path'), { code: 'ERR_INVALID_ARG_TYPE' })");
  jestExpect({ error: foreign }).toEqual(vm.runInThisContext(`(function (expect) { return ${source}; })`)(jestExpect));
  assert.equal(valueSource(describeValue([new RangeError('too big')])), "[new RangeError('too big')]");
});

// Jest compares a Set or Map only with one of the same constructor, and throws comparing an
// instance of a subclass with a plain `new Set([])`: a subclass's instance is written as its kind.
test('writes an instance of a Map or Set subclass as its kind, never as a plain literal', () => {
  class TagSet extends Set {}
  class Registry extends Map {}
  const value = { tags: new TagSet(['a']), registry: new Registry([['k', 1]]), plain: new Set([1]) };
  const source = valueSource(describeValue(value));
  assert.match(source, /tags: expect\.any\(Set\)/);
  assert.match(source, /registry: expect\.any\(Map\)/);
  assert.match(source, /plain: new Set\(\[1\]\)/);
});
