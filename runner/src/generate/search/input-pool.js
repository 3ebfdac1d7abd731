'use strict';
// Turns what is known about a parameter (its hint) and what was mined from the module (literals,
// regex samples, values other exports returned) into candidate inputs: an ordered list of seeds
// to try one at a time, and random draws for the search to combine later.

const { atom, fromValue, fromData, arrayOf, objectOf, mockOf } = require('./candidate');
const { sampleRegex } = require('../analysis/regex-sampler');
const { Hint } = require('../analysis/hint');
const { PATH_SEEDS } = require('../execution/folder-fixture');
const { quoteString, propertyKey } = require('../writing/js-source');

const HTTP_DATE = 'Sat, 01 Jan 2000 00:00:00 GMT';
const ISO_DATE = '2020-01-02T03:04:05.000Z';
// Short and empty strings, numbers as text, and the shapes strings often have in real code
// (versions, URLs, e-mail addresses, JSON, lists, dates). The first of each list is what other
// arguments are varied around: an ordinary value ('abc', 3), not an edge case ('', 0) that makes
// most code return early or return something trivial (and 3, unlike 1 or 2, tells `*` from `+`).
const BOUNDARY_STRINGS = [
  'abc',
  '',
  'a',
  'Hello World',
  '42',
  ' ',
  'foo-bar_baz',
  'A',
  '-1',
  '1.5',
  '1.2.3',
  'a,b,c',
  'a.b.c',
  'https://example.com/a?b=1',
  'user@example.com',
  '{"a":1}',
  'line1\nline2',
  HTTP_DATE,
  ISO_DATE,
  // Wide (CJK) and astral (emoji, a surrogate pair) characters: text code measures or splits.
  '日本😀',
];
const BOUNDARY_NUMBERS = [
  3,
  0,
  1,
  -1,
  2,
  10,
  0.5,
  1.5,
  -2.5,
  100,
  1000,
  1024,
  123456789,
  2 ** 31,
  Number.MAX_SAFE_INTEGER,
  NaN,
  Infinity,
  -Infinity,
  -0,
];
const MAX_SEEDS_PER_PARAM = 40;
// Strings sampled from the regexes of a module's graph (execution/child/graph-regexes.js).
const MAX_GRAPH_STRINGS = 120;
const MAX_SAMPLES_PER_GRAPH_REGEX = 4;

const MAX_DEPTH = 2;

// A string whose characters the code compares one by one with punctuation (`str[i] === ':'`,
// `char === '*'`): a scanner of a small syntax. Its seeds are texts made of those characters
// around a word, so the scanner gets past its first token: each character before the word, the
// brackets it compares both sides of around it, then each pair of characters around it, the
// pairs taken in turns so that every character leads early. All of them behind a separator,
// as the tokens of paths, routes and patterns usually stand ('/:abc*', '/(abc)').
const SCANNED_WORD = 'abc';
const SCANNED_SEPARATOR = '/';
const MIN_SCANNED_CHARACTERS = 3;
const MAX_SCANNER_TEXTS = 28;
const CLOSING = { '(': ')', '[': ']', '{': '}', '<': '>' };

function scannerTexts(hint) {
  const element = hint.element;
  if (!element || !hint.types.has('string')) return [];
  const chars = element.values.filter((value) => typeof value === 'string' && /^[^\sA-Za-z0-9]$/.test(value));
  if (chars.length < MIN_SCANNED_CHARACTERS) return [];
  const texts = chars.map((char) => `${SCANNED_SEPARATOR}${char}${SCANNED_WORD}`);
  for (const char of chars) {
    if (CLOSING[char] && chars.includes(CLOSING[char]))
      texts.push(`${SCANNED_SEPARATOR}${char}${SCANNED_WORD}${CLOSING[char]}`);
  }
  // A closing bracket opens nothing and an opening one closes nothing: `/)abc(` is no text.
  const closers = new Set(Object.values(CLOSING));
  for (let offset = 1; offset < chars.length; offset++) {
    chars.forEach((char, i) => {
      const after = chars[(i + offset) % chars.length];
      if (!closers.has(char) && !CLOSING[after]) texts.push(`${SCANNED_SEPARATOR}${char}${SCANNED_WORD}${after}`);
    });
  }
  return [...new Set(texts)];
}

// Error codes a module compares with (`er.code === 'EBUSY'`) are the codes of Node's system
// errors; a module naming none gets these, for its stand-ins that fail.
const ERRNO_CODES = new Set(Object.keys(require('node:os').constants.errno));
const DEFAULT_ERROR_CODES = ['ENOENT'];
// Object seeds giving one function member a stand-in that fails, per parameter.
const MAX_FAILING_MEMBER_SEEDS = 32;

function dedupe(candidates) {
  const seen = new Set();
  return candidates.filter((candidate) => {
    const key = JSON.stringify(candidate);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function typedBoundaries(type) {
  switch (type) {
    case 'string':
      return BOUNDARY_STRINGS.map(atom.string);
    case 'number':
      return BOUNDARY_NUMBERS.map(atom.number);
    case 'boolean':
      return [atom.boolean(true), atom.boolean(false)];
    case 'bigint':
      return ['0', '1', '-1', '12345678901234567890'].map(atom.bigint);
    case 'array':
      return [arrayOf([]), arrayOf([1, 2, 3].map(atom.number)), arrayOf(['a', 'b'].map(atom.string))];
    case 'object':
      return [objectOf([]), objectOf([['a', atom.number(1)]])];
    case 'function':
      return [
        mockOf(),
        mockOf({ returns: atom.boolean(true) }),
        mockOf({ identity: true }),
        mockOf({ mutates: true }),
        mockOf({ throws: 'callback failed' }),
      ];
    case 'date':
      return [
        atom.expression('date', `new Date(${JSON.stringify(ISO_DATE).replace(/"/g, "'")})`),
        atom.expression('date', 'new Date(0)'),
      ];
    case 'regexp':
      return [atom.expression('regexp', '/a+b/'), atom.expression('regexp', '/^x$/i')];
    case 'buffer':
      return [atom.expression('buffer', "Buffer.from('abc')"), atom.expression('buffer', 'Buffer.alloc(0)')];
    case 'symbol':
      return [atom.expression('symbol', "Symbol('key')")];
    case 'map':
      return [atom.expression('map', "new Map([['a', 1], ['b', 2]])"), atom.expression('map', 'new Map()')];
    case 'set':
      return [atom.expression('set', "new Set(['a', 1])"), atom.expression('set', 'new Set()')];
    case 'typedarray':
      return [
        atom.expression('typedarray', 'new Uint8Array([1, 2, 3])'),
        atom.expression('typedarray', 'new Uint8Array(0)'),
      ];
    case 'undefined':
      return [atom.undefined()];
    default:
      return [];
  }
}

// Inputs for a value nothing is known about, most plausible first. A function among them: a
// handler that is only stored (`on(type, handler)`) is called later by another method.
const UNKNOWN_VALUES = () => [
  atom.number(1),
  atom.string('abc'),
  atom.boolean(true),
  atom.number(0),
  atom.string(''),
  atom.number(-1),
  arrayOf([1, 2, 3].map(atom.number)),
  objectOf([['a', atom.number(1)]]),
  mockOf(),
  atom.boolean(false),
  arrayOf([]),
  objectOf([]),
  atom.number(2.5),
  atom.number(NaN),
];
// Inputs for an object property nothing is known about: flags are the usual case.
const UNKNOWN_PROPERTY_VALUES = () => [
  atom.boolean(true),
  atom.number(1),
  atom.string('abc'),
  atom.boolean(false),
  atom.number(0),
  atom.string(''),
  arrayOf([atom.string('a')]),
  objectOf([]),
];

// Samples of many regexes, taken in turns: each regex's first (its most ordinary match), then
// each one's second, so that every shape the graph checks for is among the first strings.
const graphSampleCache = new Map();
function graphStrings(regexes) {
  const lists = regexes.map(({ pattern, flags }) => {
    const key = `/${pattern}/${flags}`;
    if (!graphSampleCache.has(key)) {
      let matching;
      try {
        matching = sampleRegex(pattern, flags).matching.filter((text) => text !== '');
      } catch {
        matching = [];
      }
      graphSampleCache.set(key, matching.slice(0, MAX_SAMPLES_PER_GRAPH_REGEX));
    }
    return graphSampleCache.get(key);
  });
  const strings = [];
  for (let round = 0; round < MAX_SAMPLES_PER_GRAPH_REGEX; round++) {
    for (const list of lists) if (round < list.length) strings.push(list[round]);
  }
  return [...new Set(strings)].slice(0, MAX_GRAPH_STRINGS);
}

// The items of two lists in turns: a, b, a, b, ... then the rest of the longer.
function alternate(first, second) {
  const items = [];
  for (let i = 0; i < Math.max(first.length, second.length); i++) {
    if (i < first.length) items.push(first[i]);
    if (i < second.length) items.push(second[i]);
  }
  return items;
}

// A stand-in for a method answering in `style` that succeeds: it calls back or resolves with no
// error; one that just returns, for a method whose failure is a throw.
function succeedingMock(style) {
  return style === 'throw' ? mockOf() : mockOf({ answer: { style, code: null } });
}

// Objects whose property `key` is of each kind a descriptor tells apart: an accessor with a getter
// and a setter, one with a getter alone, and a frozen data property (not configurable, not
// writable). Code that reads descriptors (`Object.getOwnPropertyDescriptor(obj, prop)`) and
// redefines the property (depd's `deprecate.property(obj, prop)`) branches on each.
function describedSeeds(key) {
  const name = quoteString(key);
  return [
    atom.expression(
      'object',
      `Object.defineProperty({}, ${name}, { get: () => 'abc', set: () => {}, enumerable: true, configurable: true })`,
    ),
    atom.expression(
      'object',
      `Object.defineProperty({}, ${name}, { get: () => 'abc', enumerable: true, configurable: true })`,
    ),
    atom.expression('object', `Object.freeze({ ${propertyKey(key)}: 'abc' })`),
  ];
}

class InputPool {
  // literals: what was mined from this module's source; observed: values seen at run time (shared);
  // graphRegexes: [{ pattern, flags }] the modules it loads hold (its own exports' first).
  constructor(literals, observed, rng, graphRegexes = []) {
    this.rng = rng;
    this.strings = literals.strings.map(atom.string);
    const literalSamples = new Set(literals.regexStrings);
    this.regexStrings = [
      ...literals.regexStrings,
      ...graphStrings(graphRegexes).filter((text) => !literalSamples.has(text)),
    ].map(atom.string);
    this.ownStrings = alternate(this.strings, this.regexStrings);
    this.numbers = literals.numbers.map(atom.number);
    this.bigints = literals.bigints.map(atom.bigint);
    // Template texts in the module's own syntax, and the data they name (analysis/template-syntax.js).
    this.templateTexts = literals.templates ? literals.templates.texts.map(atom.string) : [];
    this.templateData = literals.templates ? fromData(literals.templates.data) : null;
    const codes = literals.strings.filter((text) => ERRNO_CODES.has(text));
    this.errorCodes = codes.length ? [...new Set(codes)] : DEFAULT_ERROR_CODES;
    this.observed = observed;
    this.seedCache = new Map(); // hint -> seeds by depth
    this.scannerCache = new Map(); // hint -> scanner texts
  }

  minedFor(type) {
    const observed = this.observed.ofType(type);
    switch (type) {
      case 'string':
        // The module's own literals and the strings its regexes (and its graph's) match, in
        // turns, before what other modules returned.
        return [...this.ownStrings, ...observed];
      case 'number':
        return [...this.numbers, ...observed];
      case 'bigint':
        return this.bigints;
      default:
        return [];
    }
  }

  typesOf(hint) {
    const types = [...hint.types].filter((type) => type !== 'undefined' && type !== 'object');
    if (hint.keyed) types.unshift('object');
    else if (hint.types.has('object') || hint.props.size) types.push('object');
    // Items read by index (`row[c].align`) beside properties of its own (`row.span`): an array
    // with a property, or a table; both are tried, the object first.
    if (hint.element && !types.includes('array')) types.push('array');
    return types;
  }

  // Ordered seed inputs for a hint: paths of the working folder's fixture for a path, compared
  // literals, template texts and their data in a template engine, regex samples, typed
  // boundaries, mined literals of the same type, then null and undefined.
  seeds(hint, depth = 0, unknown = UNKNOWN_VALUES) {
    const types = this.typesOf(hint);
    const seeds = hint.fsPath ? PATH_SEEDS.map(atom.string) : [];
    // A scanner's texts before the characters it compares, each alone.
    seeds.push(...this.scannerTexts(hint).slice(0, MAX_SCANNER_TEXTS));
    seeds.push(...hint.values.map(fromValue).filter(Boolean));
    if (this.templateData && depth === 0 && !hint.fsPath) {
      // Where the type is not known, the data first: a view or locals parameter.
      if (types.includes('object') || !types.length) seeds.push(this.templateData);
      if (types.includes('string') || !types.length) seeds.push(...this.templateTexts);
    }
    for (const { pattern, flags } of hint.regexes) {
      const { matching, nonMatching } = sampleRegex(pattern, flags);
      seeds.push(...matching.map(atom.string), ...nonMatching.slice(0, 1).map(atom.string));
    }
    if (hint.answers) seeds.push(...this.answeringMocks(hint.answers));
    for (const length of hint.lengths) {
      if (types.includes('array')) seeds.push(arrayOf(Array.from({ length }, (_, i) => atom.number(i + 1))));
      else seeds.push(atom.string('a'.repeat(length)));
    }
    for (const type of types) {
      if (type === 'object') seeds.push(...this.objectSeeds(hint, depth));
      else if (type === 'array') seeds.push(...this.arraySeeds(hint, depth));
      else seeds.push(...this.minedFor(type).slice(0, 12), ...typedBoundaries(type));
    }
    if (!types.length)
      seeds.push(...unknown(), ...this.minedFor('string').slice(0, 6), ...this.minedFor('number').slice(0, 6));
    seeds.push(atom.undefined(), atom.null(), ...this.failingMemberSeeds(hint, depth));
    return dedupe(seeds).slice(0, MAX_SEEDS_PER_PARAM);
  }

  // Texts in the syntax a scanner compares characters with (scannerTexts), cached by hint: the
  // first are seeds, all are drawn from at random.
  scannerTexts(hint) {
    if (!this.scannerCache.has(hint)) this.scannerCache.set(hint, scannerTexts(hint).map(atom.string));
    return this.scannerCache.get(hint);
  }

  // Stand-ins for a function that answers in `style` (Hint.answers): one that never answers
  // first (as before: code a success leads on may need more than the stand-ins give it, and fail
  // later, outside the scenario), then one that succeeds, then one failing with each error code
  // the module compares with.
  answeringMocks(style) {
    return [mockOf(), ...this.answerCodes(style).map((code) => mockOf({ answer: { style, code } }))];
  }

  // null (success) for the styles where a stand-in that just returns does not already succeed.
  answerCodes(style) {
    return style === 'throw' ? this.errorCodes : [null, ...this.errorCodes];
  }

  objectSeeds(hint, depth) {
    if (depth >= MAX_DEPTH || !hint.props.size) return typedBoundaries('object');
    const props = [...hint.props];
    const seedsOf = (propHint) => this.seeds(propHint, depth + 1, UNKNOWN_PROPERTY_VALUES);
    const firstOf = (propHint) => seedsOf(propHint)[0];
    // An option is given a value other than its default, alone and in the object of all of
    // them: `{ start: false }` where the code starts from `start = true` (which would change
    // nothing).
    const otherThanDefault = (propHint) =>
      seedsOf(propHint).find(
        (seed) => seed.kind !== 'atom' || !propHint.defaults.some((value) => Object.is(value, seed.value)),
      ) || firstOf(propHint);
    const full = objectOf(props.map(([key, propHint]) => [key, otherThanDefault(propHint)]));
    const single = props.map(([key, propHint]) => objectOf([[key, otherThanDefault(propHint)]]));
    return [full, ...single, objectOf([]), ...(hint.described ? describedSeeds(props[0][0]) : [])];
  }

  // An options object of file-system methods (`{ unlink, rmdir }`): each method answering alone,
  // successfully, then failing with each code in turn, so that the code's retry and error
  // branches run. They come after the other seeds of the parameter, in the room those leave.
  // Where the code calls several of them (`opts.mkdirAsync(…).then(…)`, then `opts.statAsync`),
  // also all of them at once, every one succeeding, and then each failing in turn while the
  // others succeed: code that takes all its methods from the object (none from `fs` when one is
  // missing) gets past the first call only so.
  failingMemberSeeds(hint, depth) {
    if (depth >= MAX_DEPTH || !this.typesOf(hint).includes('object')) return [];
    const answering = [...hint.props].filter(([, propHint]) => propHint.answers);
    const alone = [];
    const together = [];
    const succeeding = answering.map(([key, { answers: style }]) => [key, succeedingMock(style)]);
    if (answering.length > 1) together.push(objectOf(succeeding));
    for (const code of [null, ...this.errorCodes]) {
      answering.forEach(([key, { answers: style }], index) => {
        if (!this.answerCodes(style).includes(code)) return;
        const failing = mockOf({ answer: { style, code } });
        alone.push(objectOf([[key, failing]]));
        if (answering.length > 1 && code !== null)
          together.push(objectOf(succeeding.map((entry, other) => (other === index ? [key, failing] : entry))));
      });
    }
    return alternate(together, alone).slice(0, MAX_FAILING_MEMBER_SEEDS);
  }

  arraySeeds(hint, depth) {
    const seeds = typedBoundaries('array');
    if (hint.element && depth < MAX_DEPTH) {
      const items = this.seeds(hint.element, depth + 1).filter(
        (item) => item.type !== 'undefined' && item.type !== 'null',
      );
      if (items.length) seeds.unshift(arrayOf(items.slice(0, 1)), arrayOf(items.slice(0, 3)));
    }
    return seeds;
  }

  // Seeds are recomputed at most once per hint and depth: random draws reuse them.
  cachedSeeds(hint, depth) {
    if (!this.seedCache.has(hint)) this.seedCache.set(hint, []);
    const byDepth = this.seedCache.get(hint);
    if (!byDepth[depth]) byDepth[depth] = this.seeds(hint, depth);
    return byDepth[depth];
  }

  // One random input for a hint, drawn from its seeds, the mined pools and random structures.
  random(hint, depth = 0) {
    const roll = this.rng.next();
    const types = this.typesOf(hint);
    if (roll < 0.45) return this.rng.pick(this.cachedSeeds(hint, depth));
    if (roll < 0.6 && types.includes('object') && depth < MAX_DEPTH) return this.randomObject(hint, depth);
    if (roll < 0.7 && types.includes('array') && depth < MAX_DEPTH) return this.randomArray(hint, depth);
    const type =
      types.length && this.rng.chance(0.8)
        ? this.rng.pick(types)
        : this.rng.pick(['string', 'number', 'boolean', 'array', 'object', 'function']);
    if (type === 'object') return depth < MAX_DEPTH ? this.randomObject(hint, depth) : objectOf([]);
    if (type === 'array') return depth < MAX_DEPTH ? this.randomArray(hint, depth) : arrayOf([]);
    const scanned = type === 'string' ? this.scannerTexts(hint) : [];
    if (scanned.length && this.rng.chance(0.5)) return this.rng.pick(scanned);
    const mined = this.minedFor(type);
    const pool = mined.length && this.rng.chance(0.7) ? mined : typedBoundaries(type);
    return pool.length ? this.rng.pick(pool) : atom.undefined();
  }

  randomObject(hint, depth) {
    const entries = [];
    for (const [key, propHint] of hint.props) {
      if (this.rng.chance(0.6)) entries.push([key, this.random(propHint, depth + 1)]);
    }
    if (!hint.props.size && this.rng.chance(0.5)) {
      const key = this.rng.pick(
        this.minedFor('string')
          .filter((s) => s.value && s.value.length < 20)
          .concat(atom.string('a')),
      );
      entries.push([key.value, this.random(new Hint(), depth + 1)]);
    }
    return objectOf(entries);
  }

  randomArray(hint, depth) {
    const elementHint = hint.element || new Hint();
    const length = this.rng.int(4);
    return arrayOf(Array.from({ length }, () => this.random(elementHint, depth + 1)));
  }
}

module.exports = { InputPool };
