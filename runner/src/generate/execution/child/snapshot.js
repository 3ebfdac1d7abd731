'use strict';
// Describes a runtime value as plain JSON so the parent can compare two runs and write it back
// as a JavaScript literal. The description keeps what Jest's `toEqual` compares: own enumerable
// properties, array items, Map/Set contents, Date time, RegExp source, error messages. Functions,
// symbols, promises and cycles are described by kind only; they cannot be written as literals.

const { EventEmitter } = require('node:events');
const { isProxy } = require('node:util').types;
const { isMockFunction } = require('./mock-function');
const { functionSource } = require('../function-source');
const { currentFreshFolder } = require('./fresh-folder');

const EMITTER_FIELDS = new Set(['_events', '_eventsCount', '_maxListeners']);

const MAX_DEPTH = 8;
const STACK_FRAME = /\n\s*at (?:\S.*\(.*\)|\S+:\d+:\d+|<anonymous>)/;
// Istanbul's counters (`cov_1xqe64bgy0().s[11]++`), named after the file's path.
const COVERAGE_COUNTER = /\bcov_\w+\b/;
// What V8 quotes for an expression it cannot print, as instrumented code's are: "yield*
// (intermediate value)(intermediate value) is not iterable" under coverage is "yield*
// refiner(value, context) is not iterable" in a plain run.
const INTERMEDIATE_VALUE = /\(intermediate value\)/;

// Where a message starts to quote what differs where the test runs, or -1: stack traces
// (AggregateError's list of errors), instrumented code V8 quotes ("Cannot destructure property
// 'type' of '(cov_….s[11]++, obj)'", "(intermediate value)"). Only the text before it is asserted.
function unportableAt(message) {
  const found = [STACK_FRAME.exec(message), COVERAGE_COUNTER.exec(message), INTERMEDIATE_VALUE.exec(message)]
    .filter(Boolean)
    .map((match) => match.index);
  return found.length ? Math.min(...found) : -1;
}
const MAX_NODES = 600;
const MAX_STRING = 300; // longer strings are asserted by their length

function numberDescription(value) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (Object.is(value, -0)) return '-0';
  return value;
}

function constructorName(value) {
  const proto = Object.getPrototypeOf(value);
  if (proto === null) return null;
  if (proto === Object.prototype) return null;
  const ctor = proto.constructor;
  return typeof ctor === 'function' && ctor.name ? ctor.name : 'Object';
}

// `{ subclass: 'ReferenceSet' }` for an instance of a class that extends `builtin` (Map, Set).
function subclassOf(value, builtin) {
  const name = constructorName(value);
  return name && name !== builtin.name ? { subclass: name } : {};
}

const FUNCTION_OWN = new Set(['length', 'name', 'prototype', 'arguments', 'caller']);
const MAX_FUNCTION_MEMBERS = 8;

// A function by its name; one the code under test built also by the methods and getters attached
// to it (`debounced.clear`, `isPending`), which follow-up steps call, and by its switches: an
// accessor it can be set through (`settable`: debug's `log.enabled`) or a boolean data member
// (`kind: 'switch'` with its value), which follow-up steps flip before calling it.
function functionDescription(value) {
  const mock = isMockFunction(value);
  const description = { t: 'function', name: value.name, mock };
  if (mock) return description;
  const members = [];
  for (const name of Object.getOwnPropertyNames(value)) {
    if (FUNCTION_OWN.has(name) || members.length >= MAX_FUNCTION_MEMBERS) continue;
    const property = Object.getOwnPropertyDescriptor(value, name);
    if (property.get) members.push({ name, kind: 'getter', ...(property.set ? { settable: true } : {}) });
    else if (typeof property.value === 'function') members.push({ name, kind: 'method' });
    else if (typeof property.value === 'boolean' && property.writable)
      members.push({ name, kind: 'switch', value: property.value });
  }
  return members.length ? { ...description, members } : description;
}

// Istanbul's function counter, first in the body of every function of the code under test.
const FUNCTION_COUNTER = /\bcov_\w+\(\)\.f\[\d+\]\+\+/;
const MAX_PROTOTYPE_METHODS = 12;

// The methods the code under test defines on a class instance's prototype chain, by name: a
// returned instance (`size(string(), 1, 5)` gives a Struct) is used through them in follow-up
// steps (`validate('abc')`). Only names: comparisons of values leave them out, so a mutant's run,
// without counters, still matches.
function prototypeMethods(value) {
  const names = [];
  for (
    let proto = Object.getPrototypeOf(value);
    proto && proto !== Object.prototype && names.length < MAX_PROTOTYPE_METHODS;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || names.includes(name) || names.length >= MAX_PROTOTYPE_METHODS) continue;
      const property = Object.getOwnPropertyDescriptor(proto, name);
      if (typeof property.value === 'function' && FUNCTION_COUNTER.test(functionSource(property.value)))
        names.push(name);
    }
  }
  return names;
}

// A text that names the scenario's folder (`path.resolve('abc')`, an fs error's message) holds
// `folderParts`, the text around each mention, and the folder as `.` in `v`: the test names the
// folder its test runs in, process.cwd(), never the one generation ran in.
function textDescription(text) {
  const folder = currentFreshFolder();
  if (!folder || !text.includes(folder)) return { v: text };
  const folderParts = text.split(folder);
  return { v: folderParts.join('.'), folderParts };
}

function tagOf(value) {
  return Object.prototype.toString.call(value).slice(8, -1);
}

class Describer {
  constructor() {
    this.nodes = 0;
    this.ancestors = new Set();
  }

  describe(value, depth = 0) {
    this.nodes++;
    // A Proxy may throw on any property it does not know (chai's assertions do, "Invalid Chai
    // property"), and Jest's equality reads `asymmetricMatch` off every value it compares.
    // Its class's methods stay there for follow-up steps to call.
    if (isProxy(value)) return this.describeProxy(value, depth);
    switch (typeof value) {
      case 'undefined':
        return { t: 'undefined' };
      case 'boolean':
        return { t: 'boolean', v: value };
      case 'number':
        return { t: 'number', v: numberDescription(value) };
      case 'bigint':
        return { t: 'bigint', v: value.toString() };
      case 'string':
        return value.length > MAX_STRING
          ? { t: 'string', v: value.slice(0, 40), length: value.length, long: true }
          : { t: 'string', ...textDescription(value) };
      case 'symbol': {
        const key = Symbol.keyFor(value);
        return key === undefined ? { t: 'symbol' } : { t: 'symbol', key };
      }
      case 'function':
        return functionDescription(value);
      default:
        break;
    }
    if (value === null) return { t: 'null' };
    // Past the limits only objects are cut short: `expect.anything()` stands for them, and it
    // matches any object (it would not match null or undefined).
    if (this.nodes > MAX_NODES || depth > MAX_DEPTH) return { t: 'truncated' };
    if (this.ancestors.has(value)) return { t: 'circular' };
    this.ancestors.add(value);
    try {
      return this.describeObject(value, depth);
    } catch {
      return { t: 'opaque', ctor: null };
    } finally {
      this.ancestors.delete(value);
    }
  }

  describeObject(value, depth) {
    const tag = tagOf(value);
    if (Array.isArray(value)) {
      const items = [];
      for (let i = 0; i < value.length; i++) items.push(this.describe(value[i], depth + 1));
      const extraKeys = Object.keys(value).length > value.length;
      return extraKeys ? { t: 'opaque', ctor: 'Array' } : { t: 'array', items };
    }
    // A function's `arguments` (passed on by `callback.apply(ctx, arguments)`): Jest tells it
    // from an array and from a plain object, so it is described as its own kind.
    if (tag === 'Arguments')
      return { t: 'arguments', items: Array.from(value, (item) => this.describe(item, depth + 1)) };
    if (Buffer.isBuffer(value))
      return value.length <= 256 ? { t: 'buffer', bytes: [...value] } : { t: 'opaque', ctor: 'Buffer' };
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      return value.length <= 256
        ? { t: 'typed', ctor: tag, items: [...value].map((item) => this.describe(item, depth + 1)) }
        : { t: 'opaque', ctor: tag };
    }
    if (tag === 'Date') return { t: 'date', v: Number.isNaN(value.getTime()) ? null : value.toISOString() };
    if (value instanceof RegExp) return { t: 'regexp', source: value.source, flags: value.flags };
    if (value instanceof Error) return this.describeError(value, depth);
    // Jest compares a Map or Set only with one of the same constructor (and throws comparing a
    // subclass's instance with a plain Set): a subclass's instance is told apart by its name.
    if (value instanceof Map) {
      return {
        t: 'map',
        entries: [...value].map(([k, v]) => [this.describe(k, depth + 1), this.describe(v, depth + 1)]),
        ...subclassOf(value, Map),
      };
    }
    if (value instanceof Set)
      return { t: 'set', items: [...value].map((item) => this.describe(item, depth + 1)), ...subclassOf(value, Set) };
    if (typeof value.then === 'function') return { t: 'promise' };
    if (
      [
        'WeakMap',
        'WeakSet',
        'WeakRef',
        'ArrayBuffer',
        'SharedArrayBuffer',
        'DataView',
        'Generator',
        'AsyncGenerator',
        'String',
        'Number',
        'Boolean',
        'Symbol',
        'BigInt',
      ].includes(tag) ||
      tag.endsWith('Iterator')
    ) {
      return { t: 'opaque', ctor: constructorName(value) || tag };
    }
    // Node's EventEmitter bookkeeping is not the module's state; tests leave it out
    // (`expect.objectContaining`, as for any instance with symbol-keyed properties). How many
    // keys were left out is kept: `Object.keys(command)` in the test still counts them.
    const allKeys = Object.keys(value);
    const keys = value instanceof EventEmitter ? allKeys.filter((key) => !EMITTER_FIELDS.has(key)) : allKeys;
    const entries = keys.map((key) => [key, this.describe(value[key], depth + 1)]);
    const ctor = constructorName(value);
    // Not an emitter's (a stream's): its methods start I/O whose failures come as 'error'
    // events after the test has ended, and end the whole Jest run.
    const methods = depth === 0 && ctor && !(value instanceof EventEmitter) ? prototypeMethods(value) : [];
    return {
      t: 'object',
      ctor,
      entries,
      ...(keys.length < allKeys.length ? { leftOutKeys: allKeys.length - keys.length } : {}),
      symbols: Object.getOwnPropertySymbols(value).some((s) => Object.prototype.propertyIsEnumerable.call(value, s)),
      ...(methods.length ? { methods } : {}),
    };
  }

  describeProxy(value, depth) {
    try {
      const ctor = constructorName(value);
      const methods = depth === 0 && ctor ? prototypeMethods(value) : [];
      return { t: 'proxy', ctor, ...(methods.length ? { methods } : {}) };
    } catch {
      return { t: 'proxy', ctor: null };
    }
  }

  describeError(error, depth) {
    const props = Object.keys(error)
      .filter((key) => key !== 'stack')
      .map((key) => [key, this.describe(error[key], depth + 1)]);
    const message = String(error.message);
    const cut = unportableAt(message);
    const text = cut >= 0 ? message.slice(0, cut).replace(/[\s'"`([{]+$/, '') : message;
    const { v, folderParts } = textDescription(text);
    return {
      t: 'error',
      ctor: constructorName(error),
      name: String(error.name),
      message: v,
      ...(folderParts ? { messageFolderParts: folderParts } : {}),
      ...(cut >= 0 ? { messagePrefix: true } : {}),
      props,
    };
  }
}

function describeValue(value) {
  return new Describer().describe(value);
}

module.exports = { describeValue };
