'use strict';
// What the code reveals about one value it receives: the types it checks for, the literals it
// compares against, the properties it reads, what its elements look like, the regexes it must
// pass, the lengths it is compared to and whether it names a file-system path. A parameter's hint
// shapes the inputs tried for it.

const MAX_VALUES = 24;
const MAX_PROPS = 24;
const TYPEOF_RESULTS = new Set(['string', 'number', 'boolean', 'object', 'function', 'undefined', 'bigint', 'symbol']);
// Kinds of object the code tells apart (`instanceof Map`, `ArrayBuffer.isView(x)`), each with
// inputs of its own (search/input-pool.js).
const INSTANCE_TYPE_NAMES = new Set(['array', 'date', 'regexp', 'buffer', 'map', 'set', 'typedarray']);

class Hint {
  constructor() {
    this.types = new Set();
    this.values = [];
    this.props = new Map();
    this.element = null;
    this.regexes = [];
    this.lengths = [];
    this.fsPath = false; // a path: handed to `fs.readFile(path)`, or so named in code that uses fs
    // Another parameter is looked up as one of its keys (`Object.getOwnPropertyDescriptor(obj,
    // prop)`): an object with that key comes before the other types it may have.
    this.keyed = false;
    // Its own properties' descriptors are read (`Object.getOwnPropertyDescriptor(obj, prop)`):
    // the code branches on what kind of property it is, and an accessor or a frozen one is tried.
    this.described = false;
    // A function the code calls and whose failure it handles, and how it reports it: 'callback'
    // (called with a function last, `options.lstat(p, (er, st) => …)`, or handed to `promisify`),
    // 'promise' (its result awaited or `.then`/`.catch`ed) or 'throw' (called inside a `try`).
    this.answers = null;
    // Indexes of the other parameters the code compares this one with (`a === b`,
    // `a.source === b.source`): the sides of an equality check or a comparator.
    this.comparedWith = new Set();
    // The values the code gives it when it is left out (`{ strict = false } = options`,
    // compiled `_a === void 0 ? true : _a`): an option given alone is worth trying at another.
    this.defaults = [];
  }

  addDefault(value) {
    if (!this.defaults.some((known) => Object.is(known, value))) this.defaults.push(value);
  }

  addType(type) {
    if (TYPEOF_RESULTS.has(type) || INSTANCE_TYPE_NAMES.has(type)) this.types.add(type);
  }

  addValue(value) {
    if (this.values.length < MAX_VALUES && !this.values.some((known) => Object.is(known, value)))
      this.values.push(value);
  }

  addRegex(regex) {
    if (!this.regexes.some((known) => known.pattern === regex.pattern && known.flags === regex.flags))
      this.regexes.push(regex);
  }

  addLength(length) {
    if (Number.isInteger(length) && length >= 0 && length <= 1000 && !this.lengths.includes(length))
      this.lengths.push(length);
  }

  prop(name) {
    if (!this.props.has(name) && this.props.size < MAX_PROPS) this.props.set(name, new Hint());
    return this.props.get(name) || new Hint();
  }

  elementHint() {
    if (!this.element) this.element = new Hint();
    return this.element;
  }

  // Follows a path of property names ('[]' for elements) from this hint, creating as it goes.
  at(path) {
    let hint = this;
    for (const key of path) hint = key === '[]' ? hint.elementHint() : hint.prop(key);
    return hint;
  }

  // The first style seen wins: a callback API called once inside a `try` is still a callback API.
  answersBy(style) {
    if (!this.answers) this.answers = style;
    this.addType('function');
  }

  isEmpty() {
    return (
      !this.types.size &&
      !this.values.length &&
      !this.props.size &&
      !this.element &&
      !this.regexes.length &&
      !this.lengths.length &&
      !this.fsPath
    );
  }

  merge(other, depth = 0) {
    if (!other || other === this || depth > 4) return;
    other.types.forEach((type) => this.types.add(type));
    other.values.forEach((value) => this.addValue(value));
    other.regexes.forEach((regex) => this.addRegex(regex));
    other.lengths.forEach((length) => this.addLength(length));
    other.defaults.forEach((value) => this.addDefault(value));
    if (other.fsPath) this.fsPath = true;
    if (other.keyed) this.keyed = true;
    if (other.described) this.described = true;
    if (other.answers && !this.answers) this.answers = other.answers;
    for (const [name, hint] of other.props) this.prop(name).merge(hint, depth + 1);
    if (other.element) this.elementHint().merge(other.element, depth + 1);
  }
}

module.exports = { Hint, INSTANCE_TYPE_NAMES };
