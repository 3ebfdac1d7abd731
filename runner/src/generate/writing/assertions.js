'use strict';
// Turns one step and what it did into Jest statements:
//   returned 60000  -> expect(ms('1m')).toBe(60000);
//   threw           -> expect(() => ms(undefined)).toThrow(expect.objectContaining({ name: 'Error', message: '…' }));
//   resolved        -> await expect(fetchUser(1)).resolves.toEqual({ id: 1 });
//   rejected        -> await expect(fetchUser(-1)).rejects.toThrow(
//                        expect.objectContaining({ name: 'Error', message: 'not found' }));
//   yielded         -> expect([...range(3)]).toEqual([0, 1, 2]);
//   left in flight  -> const pending = limit(job);   (settled by a later settleOrder step)
// A value too large to read in a test is asserted by its size instead, and by a few of its parts.

const { memberAccess } = require('./js-source');
const {
  valueSource,
  isPrimitive,
  errorFieldsSource,
  errorProperties,
  Unassertable,
  BUILTIN_ERRORS,
} = require('./value-source');
const { stateAssertion } = require('./effect-assertions');

const MAX_LITERAL_LINES = 40;
const TEST_INDENT = '    ';

// `.toBe(1)`, `.toEqual({...})`, `.toBeNaN()` ... for a described value, or null for a literal of
// more than maxLines lines.
function matcherFor(desc, indent, maxLines = MAX_LITERAL_LINES) {
  if (desc.t === 'undefined') return '.toBeUndefined()';
  if (desc.t === 'null') return '.toBeNull()';
  if (desc.t === 'number' && desc.v === 'NaN') return '.toBeNaN()';
  if (desc.t === 'string' && desc.long) return `.toHaveLength(${desc.length})`;
  if (isPrimitive(desc)) return `.toBe(${valueSource(desc)})`;
  // Not `toBeInstanceOf(Function)`: functions of Node's own modules (`fs.mkdir`) are of another realm
  // than the test's `Function` in Jest; `expect.any(Function)` checks `typeof`.
  if (desc.t === 'function') return '.toEqual(expect.any(Function))';
  const literal = valueSource(desc, indent);
  if (literal.split('\n').length > maxLines) return null;
  return `.toEqual(${literal})`;
}

// A table of text entries: an array of strings, or a plain object whose values all are. Not
// other primitives: with enums and numeric tables written whole too, jsonc-parser's package
// sweep kept 53.6% of its statements where it had kept 66.5%.
function flatTable(desc) {
  const text = (value) => value.t === 'string' && isPrimitive(value);
  if (desc.t === 'array') return desc.items.length > 0 && desc.items.every(text);
  return desc.t === 'object' && !desc.ctor && desc.entries.length > 0 && desc.entries.every(([, value]) => text(value));
}

// Assertions for a value held by `subject` (an expression safe to repeat).
// wanted: keys (or indexes) of a large value's parts to read besides the sampled ones.
// exported: the value is data the module exports (a read, not what a call returned).
function valueAssertions(subject, desc, classRefs, indent, wanted = [], exported = false) {
  const lines = [];
  const classRef = desc.t === 'object' && desc.ctor && classRefs.get(desc.ctor);
  if (classRef) lines.push(`expect(${subject}).toBeInstanceOf(${classRef});`);
  if (classRef && !desc.entries.length) return lines;
  // More parts changed by sampled mutants than a test reads one by one, or an exported table of
  // plain entries (debug's 76 colours, each string a mutant of its own, of which the sampled
  // mutants reach a few at most): the whole table, where it is not too long to read.
  const whole = wanted.length > MAX_WANTED_PARTS || (exported && flatTable(desc));
  const matcher = matcherFor(desc, indent, whole ? MAX_TABLE_LINES : MAX_LITERAL_LINES);
  if (matcher) lines.push(`expect(${subject})${matcher};`);
  else if (desc.t === 'array')
    lines.push(
      `expect(${subject}).toHaveLength(${desc.items.length});`,
      ...sampledParts(subject, desc, indent, wanted),
    );
  else if (desc.t === 'object')
    lines.push(
      `expect(Object.keys(${subject})).toHaveLength(${desc.entries.length + (desc.leftOutKeys || 0)});`,
      ...sampledParts(subject, desc, indent, wanted),
    );
  else lines.push(`expect(${subject}).toBeDefined();`);
  return lines;
}

// A table too large to read whole (a list of 249 countries) is asserted by its size and by its
// first, middle and last items (or entries, by key) where those are short enough to read: a
// mutant that empties the function building each item, or changes each key, then fails. The
// parts `wanted` (those a sampled mutant changed: strengthen.js) are read too, in their order.
const SAMPLED_PARTS = 3;
const MAX_WANTED_PARTS = 12;
// The most lines of a table asserted whole (valueAssertions).
const MAX_TABLE_LINES = 300;
function sampledParts(subject, desc, indent, wanted = []) {
  const parts =
    desc.t === 'array'
      ? desc.items.map((item, index) => [`${subject}[${index}]`, item, index])
      : desc.entries.map(([key, value]) => [memberAccess(subject, key), value, key]);
  const readable = parts.filter(([, part]) => part.t !== 'truncated' && part.t !== 'unstable');
  if (!readable.length) return [];
  const sampled = [...new Set([0, Math.floor(readable.length / 2), readable.length - 1])].slice(0, SAMPLED_PARTS);
  const wantedKeys = new Set(wanted.slice(0, MAX_WANTED_PARTS));
  const picks = readable.filter((part, index) => sampled.includes(index) || wantedKeys.has(part[2]));
  return picks.flatMap(([expression, part]) => {
    const matcher = matcherFor(part, indent);
    return matcher && matcher.split('\n').length <= SAMPLED_PART_LINES ? [`expect(${expression})${matcher};`] : [];
  });
}
const SAMPLED_PART_LINES = 8;

// The argument of toThrow: the error's name (its class: `TypeError` turned into `Error` is a bug
// too), its message and its primitive own properties (`code`), as far as both runs agreed on them.
function thrownMatcher(desc) {
  if (desc.t !== 'error') return '';
  if (desc.message === null && !errorProperties(desc).length)
    return BUILTIN_ERRORS.has(desc.ctor) && desc.name === desc.ctor ? desc.ctor : '';
  return errorFieldsSource(desc);
}

// What a test does with a returned iterator: spread it, or take the first values of an endless
// one; async iterators are collected. An iterator that failed is consumed whole (it fails first).
function iterationSource(expression, outcome) {
  const count = outcome.done || outcome.kind !== 'yield' ? null : outcome.value.items.length;
  if (outcome.iterated === 'async')
    return count === null ? `await collect(${expression})` : `await collect(${expression}, ${count})`;
  return count === null ? `[...${expression}]` : `take(${expression}, ${count})`;
}

// Returns { lines, async, helpers } for one rendered step and its outcome. `names` hands out
// local names not yet used in the test (for `const result = …`); `declaredNames` are the test's
// names of the scenario's declared inputs, by declaration order.
function stepAssertions(step, outcome, classRefs, isLast, names, declaredNames) {
  const helpers = new Set();
  const expression = step.expression;
  const callbacks = (outcome.calledBack || []).map((index) => declaredNames[index]).filter(Boolean);
  const isAsync =
    outcome.kind === 'resolve' || outcome.kind === 'reject' || outcome.iterated === 'async' || callbacks.length > 0;
  if (callbacks.length) helpers.add('calledBack');
  if (outcome.iterated === 'async') helpers.add('collect');
  else if (outcome.iterated && outcome.kind === 'yield' && !outcome.done) helpers.add('take');
  const lines = (() => {
    try {
      return assertionLines(step, outcome, classRefs, expression, isLast, names);
    } catch (error) {
      if (!(error instanceof Unassertable)) throw error;
      // The value changed between runs in a way no matcher accepts: only check that the call completes.
      if (outcome.iterated) return [`${iterationSource(expression, outcome)};`];
      return outcome.kind === 'resolve'
        ? [`await ${expression};`]
        : [step.bind ? `const ${step.bind} = ${expression};` : `${expression};`];
    }
  })();
  // The callback is called later: wait for it before asserting its calls.
  lines.push(...callbacks.map((name) => `await calledBack(${name});`));
  return { lines, async: isAsync, helpers };
}

function assertionLines(step, outcome, classRefs, expression, isLast, names) {
  const indent = TEST_INDENT;
  switch (outcome.kind) {
    case 'launch':
      // Left in flight: a later step settles it (settleOrder).
      return [`const ${step.bind} = ${expression};`];
    case 'return': {
      if (step.statement) return [`${expression};`];
      if (step.bind) {
        // The state of a new instance is worth asserting when constructing it is what the test is about.
        const lines = [`const ${step.bind} = ${expression};`];
        if (isLast) lines.push(...stateAssertion(step.bind, outcome.value));
        return lines;
      }
      const desc = outcome.value;
      const needsSubject =
        (desc.t === 'object' && desc.ctor && classRefs.has(desc.ctor)) || matcherFor(desc, indent) === null;
      if (!needsSubject) return [`expect(${expression})${matcherFor(desc, indent)};`];
      const result = names.claim('result');
      return [
        `const ${result} = ${expression};`,
        ...valueAssertions(result, desc, classRefs, indent, outcome.partsRead, step.op === 'read'),
      ];
    }
    case 'throw': {
      const body = outcome.iterated ? iterationSource(expression, outcome) : expression;
      const thunk = step.statement ? `() => {\n${indent}  ${body};\n${indent}}` : `() => ${body}`;
      return [`expect(${thunk}).toThrow(${thrownMatcher(outcome.value)});`];
    }
    case 'resolve': {
      if (step.bind) return [`const ${step.bind} = await ${expression};`];
      const matcher = matcherFor(outcome.value, indent);
      if (matcher) return [`await expect(${expression}).resolves${matcher};`];
      const result = names.claim('result');
      return [
        `const ${result} = await ${expression};`,
        ...valueAssertions(result, outcome.value, classRefs, indent, outcome.partsRead),
      ];
    }
    case 'reject': {
      const desc = outcome.value;
      const subject = outcome.iterated ? iterationSource(expression, outcome).replace(/^await /, '') : expression;
      if (desc.t === 'error') return [`await expect(${subject}).rejects.toThrow(${thrownMatcher(desc)});`];
      return [`await expect(${subject}).rejects${matcherFor(desc, indent) || '.toBeDefined()'};`];
    }
    default:
      break;
  }
  // yield: what the iterator produced
  const matcher = matcherFor(outcome.value, indent);
  return [
    `expect(${iterationSource(expression, outcome)})${matcher || `.toHaveLength(${outcome.value.items.length})`};`,
  ];
}

// Whether a test reads only some parts of a returned value (sampledParts): an array or object
// too long to write whole.
function readsSomeParts(desc) {
  return (desc.t === 'array' || desc.t === 'object') && matcherFor(desc, TEST_INDENT) === null;
}

module.exports = { stepAssertions, readsSomeParts };
