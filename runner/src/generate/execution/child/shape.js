'use strict';
// Describes what a loaded module exports, as the parent needs it to choose what to call:
// functions (plain, async, generator), classes with their prototype members and statics, and
// objects holding functions. Plain data found along the way is sampled: values returned by one
// export are good inputs for another.

const { functionSource } = require('../function-source');

const MAX_SAMPLES = 60;
const MAX_FLAGS = 4;
const SKIPPED_STATICS = new Set(['length', 'name', 'prototype', 'arguments', 'caller']);
const MAX_DATA_KEYS = 8;
// Exports are followed this many property steps down: `styles.color.ansi256.rgb` is a function
// at depth 3, reached through an object built by a factory (`assembleStyles()`).
const MAX_DEPTH = 3;

// The keys an object's members are read by: its enumerable ones first, then the non-enumerable
// ones the code set with `Object.defineProperty` (groups like `styles.color`, kept out of
// `Object.keys` on purpose, are API all the same). An instance of a class keeps to its
// enumerable keys: its prototype's methods are read apart (instanceMethods).
function ownKeys(object) {
  const keys = Object.keys(object);
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype && proto !== null) return keys;
  const hidden = Object.getOwnPropertyNames(object).filter(
    (name) => !Object.prototype.propertyIsEnumerable.call(object, name),
  );
  return [...keys, ...hidden];
}

// A plain object or array holding only data (no functions) at its top level.
function isDataTable(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
  const values = Array.isArray(value) ? value : Object.values(value);
  return values.length > 0 && values.every((item) => typeof item !== 'function');
}

// A function's `length` or `name`, or `fallback` when reading it throws: chai guards its
// methods' `length` with a getter that throws ("Invalid Chai property: equal.length"), and a
// Proxy may refuse any read. One such member must not fail the whole module's load.
function functionProperty(fn, key, fallback) {
  try {
    const value = fn[key];
    return typeof value === typeof fallback ? value : fallback;
  } catch {
    return fallback;
  }
}

function functionKind(fn) {
  const tag = Object.prototype.toString.call(fn).slice(8, -1);
  return {
    async: tag === 'AsyncFunction' || tag === 'AsyncGeneratorFunction',
    generator: tag.endsWith('GeneratorFunction'),
  };
}

// Whether a function is the submitted code's own: only files generation instrumented carry
// istanbul's function counters (`cov_1x2y().f[3]++`). Methods inherited from Node's or a
// dependency's classes (EventEmitter's `on`, `emit`...) are not, nor are built-ins.
const COVERAGE_COUNTER = /\bcov_\w+\(\)\.f\[\d+\]\+\+/;

// Which function of which file `fn` is, the same in every load: its first coverage counter
// (`cov_1x2y().f[3]`, istanbul's name for the file, and the function's number), or null for code
// that is not the module's.
const FUNCTION_COUNTER = /\b(cov_\w+)\(\)\.f\[(\d+)\]\+\+/;
function functionIdentity(fn) {
  try {
    const found = FUNCTION_COUNTER.exec(functionSource(fn));
    return found ? `${found[1]}#${found[2]}` : null;
  } catch {
    return null;
  }
}

function isModuleCode(fn) {
  try {
    return COVERAGE_COUNTER.test(functionSource(fn));
  } catch {
    return false;
  }
}

function isClass(fn) {
  if (/^class[\s{]/.test(functionSource(fn))) return true;
  const proto = fn.prototype;
  return Boolean(proto) && Object.getOwnPropertyNames(proto).some((name) => name !== 'constructor');
}

// Methods, getters and setters of a prototype chain; `inherited` marks those of superclasses.
function accessorMembers(owner, skip) {
  const members = [];
  const seen = new Set(skip);
  let inherited = false;
  for (
    let object = owner;
    object && object !== Object.prototype && object !== Function.prototype;
    object = Object.getPrototypeOf(object)
  ) {
    for (const name of Object.getOwnPropertyNames(object)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const descriptor = Object.getOwnPropertyDescriptor(object, name);
      if (descriptor.get || descriptor.set) {
        if (descriptor.get) members.push({ name, kind: 'getter', inherited, own: isModuleCode(descriptor.get) });
        if (descriptor.set) members.push({ name, kind: 'setter', inherited, own: isModuleCode(descriptor.set) });
      } else if (typeof descriptor.value === 'function') {
        const fn = descriptor.value;
        members.push({
          name,
          kind: 'method',
          inherited,
          own: isModuleCode(fn),
          length: functionProperty(fn, 'length', 0),
          fnName: functionProperty(fn, 'name', ''),
          ...functionKind(fn),
        });
      }
    }
    inherited = true;
  }
  return members;
}

class ShapeReader {
  constructor() {
    this.samples = [];
    // A function reachable twice (`module.exports.default = camelCase`) is described once; its
    // aliases are not separate targets.
    this.seenFunctions = new Set();
    // Likewise a table reachable twice (`styles.red` and `styles.color.red`) is asserted once,
    // where it is found first: the shallower path, as an object's tables are read before its
    // members.
    this.seenTables = new Set();
  }

  sample(value) {
    if (this.samples.length >= MAX_SAMPLES) return;
    if (typeof value === 'string' && value.length <= 80) this.samples.push(value);
    else if (typeof value === 'number' && Number.isFinite(value)) this.samples.push(value);
    // The parent turns exported regexes into strings they match.
    else if (value instanceof RegExp) this.samples.push({ regex: { pattern: value.source, flags: value.flags } });
  }

  read(value, depth = 0) {
    if (typeof value === 'function') {
      if (this.seenFunctions.has(value) || depth > MAX_DEPTH) return { kind: 'value' };
      this.seenFunctions.add(value);
      const base = {
        length: functionProperty(value, 'length', 0),
        fnName: functionProperty(value, 'name', ''),
        own: isModuleCode(value),
        identity: functionIdentity(value),
        ...functionKind(value),
      };
      if (isClass(value)) {
        return {
          kind: 'class',
          ...base,
          members: accessorMembers(value.prototype, ['constructor']),
          statics: this.statics(value, depth),
          data: this.dataKeys(value),
        };
      }
      return { kind: 'function', ...base, statics: this.statics(value, depth), data: this.dataKeys(value) };
    }
    if (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      !(value instanceof RegExp) &&
      depth < MAX_DEPTH
    ) {
      const data = this.dataKeys(value);
      const members = {};
      // Boolean (or not yet set) data members: switches like `kleur.enabled` that tests may flip.
      const flags = {};
      const enumerable = new Set(Object.keys(value));
      for (const key of ownKeys(value)) {
        let member;
        try {
          member = value[key];
        } catch {
          continue;
        }
        if (enumerable.has(key)) {
          if ((typeof member === 'boolean' || member === undefined) && Object.keys(flags).length < MAX_FLAGS)
            flags[key] = Boolean(member);
          // Keys of exported data (status codes, unit names) are inputs; names of exports are not.
          if (depth > 0) this.sample(key);
        }
        const shape = this.read(member, depth + 1);
        if (shape.kind !== 'value') members[key] = shape;
      }
      Object.assign(members, this.instanceMethods(value, members));
      return { kind: 'object', members, flags, data };
    }
    if (Array.isArray(value)) value.slice(0, 40).forEach((item) => this.sample(item));
    else this.sample(value);
    return { kind: 'value' };
  }

  // `module.exports = new Service()`: the methods the module's code defines on its prototype
  // chain (not those of built-in or dependencies' classes) are exported too.
  instanceMethods(object, known) {
    const proto = Object.getPrototypeOf(object);
    if (!proto || proto === Object.prototype) return {};
    const methods = {};
    for (const member of accessorMembers(proto, ['constructor', ...Object.keys(known)])) {
      if (member.kind !== 'method' || !member.own) continue;
      methods[member.name] = {
        kind: 'function',
        length: member.length,
        fnName: member.fnName,
        own: true,
        async: member.async,
        generator: member.generator,
        statics: {},
      };
    }
    return methods;
  }

  statics(fn, depth) {
    const statics = {};
    for (const name of Object.getOwnPropertyNames(fn)) {
      if (SKIPPED_STATICS.has(name)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(fn, name);
      if (descriptor.get) {
        statics[name] = { kind: 'getter' };
        continue;
      }
      const shape = this.read(descriptor.value, depth + 1);
      // `Child.super_ = EventEmitter` (util.inherits) is not the module's to test: targets.js
      // leaves out functions not of the module's code unless they wrap one of its functions.
      if (shape.kind !== 'value') statics[name] = shape;
    }
    return statics;
  }

  // Names of the data tables (plain objects and arrays) hanging off an export: `status.redirect`,
  // `status.codes`. Each is asserted whole, so that a changed entry (`300: true` made `false`)
  // fails a test.
  dataKeys(owner) {
    const keys = [];
    for (const name of Object.keys(owner)) {
      let value;
      try {
        value = owner[name];
      } catch {
        continue;
      }
      if (!isDataTable(value) || this.seenTables.has(value)) continue;
      // Every table here counts as seen, also those past the limit: found again deeper, they
      // would only repeat this owner's.
      this.seenTables.add(value);
      if (keys.length < MAX_DATA_KEYS) keys.push(name);
    }
    return keys;
  }
}

// Returns { shape, samples } for a module's exports.
function readExportsShape(moduleExports) {
  const reader = new ShapeReader();
  const shape = reader.read(moduleExports);
  return { shape, samples: reader.samples };
}

module.exports = { readExportsShape };
