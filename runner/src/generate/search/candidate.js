'use strict';
// Input values as data. A candidate is an atom (a literal with its source text), an array, an
// object or a mock function (`jest.fn`). Keeping inputs structured lets the search mutate them
// (change one property, add an item) and spell them in the test exactly as they were run.

const { quoteString, numberSource, propertyKey } = require('../writing/js-source');

const LINE_WIDTH = 72;

const atom = {
  string: (value) => ({ kind: 'atom', type: 'string', value, source: quoteString(value) }),
  number: (value) => ({ kind: 'atom', type: 'number', value, source: numberSource(value) }),
  boolean: (value) => ({ kind: 'atom', type: 'boolean', value, source: String(value) }),
  bigint: (text) => ({ kind: 'atom', type: 'bigint', value: text, source: `${text}n` }),
  null: () => ({ kind: 'atom', type: 'null', value: null, source: 'null' }),
  undefined: () => ({ kind: 'atom', type: 'undefined', value: undefined, source: 'undefined' }),
  // Values built by an expression (dates, regexes, buffers, symbols).
  expression: (type, source) => ({ kind: 'atom', type, source }),
};

function fromValue(value) {
  switch (typeof value) {
    case 'string':
      return atom.string(value);
    case 'number':
      return atom.number(value);
    case 'boolean':
      return atom.boolean(value);
    case 'bigint':
      return atom.bigint(value.toString());
    case 'undefined':
      return atom.undefined();
    default:
      return value === null ? atom.null() : null;
  }
}

const arrayOf = (items) => ({ kind: 'array', items });
const objectOf = (entries) => ({ kind: 'object', entries });
// The candidate for plain data: primitives, arrays and plain objects of them.
const fromData = (value) =>
  Array.isArray(value)
    ? arrayOf(value.map(fromData))
    : value !== null && typeof value === 'object'
      ? objectOf(Object.entries(value).map(([key, item]) => [key, fromData(item)]))
      : fromValue(value);
// A mock whose implementation returns `returns` (a candidate), or throws when `throws` is set;
// `identity` returns its first argument, `mutates` sets a property on it (an object) and returns
// nothing: a recipe that changes the draft it is handed (`produce(base, (draft) => { … })`), a
// visitor that marks what it visits; `later` (with `returns`) resolves to it some microtasks
// later: a task that finishes after the ones started beside it (ScenarioFactory.inFlight).
// `answer` ({ style, code }) makes a stand-in for a function whose failure the code handles
// (Hint.answers): it calls back its last argument, settles a promise or throws, with an error of
// that `code` (`ENOENT`), or successfully when `code` is null (not for 'throw').
const mockOf = ({
  returns = null,
  throws = null,
  identity = false,
  mutates = false,
  later = false,
  answer = null,
} = {}) => ({
  kind: 'mock',
  returns,
  throws,
  identity,
  mutates,
  later,
  ...(answer ? { answer } : {}),
});

// Microtasks a `later` mock waits before it resolves.
const LATER_TICKS = 10;

// The property a `mutates` mock sets on the object it is called with.
const MUTATED_KEY = 'changed';

// An error as Node's system calls make them: its `code` says what failed.
const codedError = (code) => `Object.assign(new Error(${quoteString(code)}), { code: ${quoteString(code)} })`;

// The callback is called on a later microtask, as a file system calls back: not on a timer, which
// the tests' fake clock would hold.
function answerSource({ style, code }, indent) {
  if (style === 'throw') return `jest.fn(() => {\n${indent}  throw ${codedError(code)};\n${indent}})`;
  if (style === 'promise')
    return code === null ? 'jest.fn(() => Promise.resolve())' : `jest.fn(() => Promise.reject(${codedError(code)}))`;
  return [
    'jest.fn((...args) => {',
    `${indent}  const callback = args[args.length - 1];`,
    `${indent}  if (typeof callback === 'function') Promise.resolve().then(() => callback(${code === null ? 'null' : codedError(code)}));`,
    `${indent}})`,
  ].join('\n');
}

function mockSource(candidate, indent) {
  if (candidate.answer) return answerSource(candidate.answer, indent);
  if (candidate.throws)
    return `jest.fn(() => {\n${indent}  throw new Error(${quoteString(candidate.throws)});\n${indent}})`;
  if (candidate.identity) return 'jest.fn((value) => value)';
  if (candidate.mutates)
    return `jest.fn((value) => {\n${indent}  if (value !== null && typeof value === 'object') value.${MUTATED_KEY} = true;\n${indent}})`;
  if (candidate.later && candidate.returns) {
    const value = toSource(candidate.returns, `${indent}  `);
    return [
      'jest.fn(async () => {',
      `${indent}  for (let tick = 0; tick < ${LATER_TICKS}; tick++) await null;`,
      `${indent}  return ${candidate.returns.kind === 'object' ? `(${value})` : value};`,
      `${indent}})`,
    ].join('\n');
  }
  if (candidate.returns) {
    const body = toSource(candidate.returns, indent);
    return candidate.returns.kind === 'object' ? `jest.fn(() => (${body}))` : `jest.fn(() => ${body})`;
  }
  return 'jest.fn()';
}

// Source text of a candidate; objects and arrays wrap onto several lines when long.
function toSource(candidate, indent = '') {
  switch (candidate.kind) {
    case 'atom':
      return candidate.source;
    case 'mock':
      return mockSource(candidate, indent);
    case 'array': {
      const inner = `${indent}  `;
      const items = candidate.items.map((item) => toSource(item, inner));
      const flat = `[${items.join(', ')}]`;
      return flat.length <= LINE_WIDTH && !flat.includes('\n')
        ? flat
        : `[\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}]`;
    }
    case 'object': {
      if (!candidate.entries.length) return '{}';
      const inner = `${indent}  `;
      const entries = candidate.entries.map(([key, value]) => `${propertyKey(key)}: ${toSource(value, inner)}`);
      const flat = `{ ${entries.join(', ')} }`;
      return flat.length <= LINE_WIDTH && !flat.includes('\n')
        ? flat
        : `{\n${entries.map((entry) => `${inner}${entry},`).join('\n')}\n${indent}}`;
    }
    default:
      throw new Error(`unknown candidate kind ${candidate.kind}`);
  }
}

// Objects, arrays and mocks are declared as named constants in a test so that the test can check
// afterwards what the call did to them.
function isDeclaredInput(candidate) {
  return candidate.kind !== 'atom';
}

module.exports = { atom, fromValue, fromData, arrayOf, objectOf, mockOf, toSource, isDeclaredInput };
