'use strict';
// Reads a function's body to learn what each parameter should look like (see hint.js): which
// types it is checked against, which literals it is compared with, which properties are read
// from it, and what the module-level helpers it is passed to expect in turn.

const walk = require('acorn-walk');
const { Hint, INSTANCE_TYPE_NAMES } = require('./hint');
const { ParameterScope, argumentsParameters } = require('./parameter-scope');
const builtins = require('./builtins');
const { foldConstant } = require('./constants');
const { regexOf } = require('./literals');
const { isFunctionNode, isClassNode, staticKeyName } = require('./declarations');
const { paramTypesFromDoc } = require('./jsdoc');
const { copiedMemberHints } = require('./copied-members');
const { isPathCall } = require('./path-module');

const ARITHMETIC = new Set(['-', '*', '/', '%', '**', '<<', '>>', '>>>', '&', '|', '^']);
const RELATIONAL = new Set(['<', '<=', '>', '>=']);
const EQUALITY = new Set(['==', '===', '!=', '!==']);
// A comparison read from its right side: `3 < x` is `x > 3`.
const FLIPPED = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '===': '===', '!=': '!=', '!==': '!==' };
const PROPAGATION_DEPTH = 3;
const FUNCTION_METHODS = new Set(['apply', 'call', 'bind']);
// Calls that look one argument up as a key of another: `Object.getOwnPropertyDescriptor(obj,
// prop)`, `Reflect.has(obj, key)`, `Object.hasOwn(obj, key)`.
const KEY_LOOKUPS = new Set([
  'Object.getOwnPropertyDescriptor',
  'Object.defineProperty',
  'Object.hasOwn',
  'Reflect.has',
  'Reflect.get',
  'Reflect.set',
  'Reflect.deleteProperty',
  'Reflect.getOwnPropertyDescriptor',
  'Reflect.defineProperty',
]);
// Calls that read the descriptor of one of an object's properties.
const DESCRIPTOR_READS = new Set(['Object.getOwnPropertyDescriptor', 'Reflect.getOwnPropertyDescriptor']);
// The key an object parameter is given for a parameter that names one of its keys, when the
// code compares that parameter with no string of its own.
const LOOKED_UP_KEY = 'key';

const TAG_TYPES = {
  Date: 'date',
  Array: 'array',
  RegExp: 'regexp',
  Object: 'object',
  Function: 'function',
  String: 'string',
  Number: 'number',
  Boolean: 'boolean',
};

// `!!x`, `+x`: x as the code coerces it.
function unwrapCoercion(node) {
  let inner = node;
  for (;;) {
    const doubled =
      inner.type === 'UnaryExpression' && inner.operator === '!' && inner.argument.type === 'UnaryExpression';
    if (doubled && inner.argument.operator === '!') inner = inner.argument.argument;
    else if (inner.type === 'UnaryExpression' && inner.operator === '+') inner = inner.argument;
    else return inner;
  }
}

// The argument of `….toString.call(x)`, else null.
function toStringTagArgument(node) {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || !node.arguments.length) return null;
  const { object, property } = node.callee;
  const isCall = staticKeyName(property, node.callee.computed) === 'call';
  const onToString =
    object.type === 'MemberExpression'
      ? staticKeyName(object.property, object.computed) === 'toString'
      : object.type === 'Identifier' && object.name === 'toString';
  return isCall && onToString ? node.arguments[0] : null;
}

class HintCollector {
  constructor(fn, context, depth) {
    this.fn = fn;
    this.context = context;
    this.depth = depth;
    this.hints = fn.params.map(() => new Hint());
    this.scope = new ParameterScope(fn);
    // A function that reads `arguments` (`var file = args.shift()`): the names it reads them into
    // stand for its parameters, each optional.
    this.argumentNames = argumentsParameters(fn);
    this.argumentNames.forEach((name, index) => {
      this.hints.push(new Hint());
      if (name) this.scope.aliases.set(name, [index]);
    });
    if (this.argumentNames[this.argumentNames.length - 1] === 'callback')
      this.hints[this.hints.length - 1].addType('function');
    this.usesArguments = false;
    this.keyUses = []; // [objectPath, keyPath]: one parameter looked up as a key of another
    this.sameKinds = []; // [index, index]: two parameters compared with each other (recordSameKind)
  }

  hintAt(path) {
    const [index, ...rest] = path;
    const length = rest[rest.length - 1] === 'length';
    const hint = this.hints[index].at(length ? rest.slice(0, -1) : rest);
    return { hint, length };
  }

  constant(node) {
    return foldConstant(node, this.context.constants);
  }

  regexNamed(node) {
    const resolved = node.type === 'Identifier' ? this.context.declarations.byName.get(node.name) : node;
    return resolved ? regexOf(resolved, this.context.constants) : null;
  }

  run() {
    const body = this.fn.body;
    this.scope.collectAliases(body);
    this.scope.collectAliases(body); // a second pass resolves aliases of aliases
    this.scope.fields = this.storedFields();
    this.readBody(body);
    this.applyDoc();
    this.followStoredFields();
    this.fn.params.forEach((param, index) => {
      if (param.type === 'Identifier') copiedMemberHints(this.fn, param.name, this.hints[index]);
    });
    this.linkLookedUpKeys();
    this.linkSameKinds();
    this.hints.forEach((hint) => textHeaders(hint));
    const params = [
      ...this.fn.params.map((param, index) => ({
        name: paramName(param, index),
        hint: this.hints[index],
        rest: param.type === 'RestElement',
        hasDefault: param.type === 'AssignmentPattern',
      })),
      ...this.argumentNames.map((name, index) => ({
        name: name || `arg${index + 1}`,
        hint: this.hints[index],
        rest: false,
        hasDefault: true,
        fromArguments: true,
      })),
    ];
    if (this.context.usesFileSystem)
      params.forEach(({ name, hint }) => {
        if (builtins.PATH_PARAMETER_NAME.test(name)) this.markPath(hint);
      });
    return params;
  }

  // What a body (the function's own, or a method's reading its stored fields) says of the
  // parameters: destructured shapes, defaults, and every expression that reads them.
  readBody(body) {
    for (const { path, type } of this.scope.destructured) {
      const { hint } = this.hintAt(path);
      if (type) hint.addType(type);
    }
    for (const { path, node } of this.scope.defaults) this.recordDefault(path, node);
    // `Object.assign({ alias: undefined, 'camel-case': true }, options)`: the defaults' keys are
    // the options the code reads, their values values worth trying.
    for (const { path, node } of this.scope.mergedDefaults) {
      this.hintAt(path).hint.addType('object');
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.computed) continue;
        const key = property.key.type === 'Identifier' ? property.key.name : property.key.value;
        if (typeof key !== 'string') continue;
        this.hintAt([...path, key]);
        this.recordDefault([...path, key], property.value);
      }
    }
    walk.fullAncestor(body, (node, _state, ancestors) => this.visit(node, ancestors[ancestors.length - 2]));
    walk.fullAncestor(body, (node, _state, ancestors) => this.noteAnswerStyle(node, ancestors));
  }

  // How a function the parameter holds reports failure, read from a call of it (Hint.answers):
  // given a Node-style callback last (`options.unlink(p, er => …)`, `options.rmdir(p, cb)`) or
  // handed to `promisify`, it calls back; its result awaited or `.then`ed, it settles a promise;
  // called inside a `try` (or named `…Sync`), it throws. The search then gives it mocks that
  // answer that way, successfully and with the error codes the module checks for.
  noteAnswerStyle(node, ancestors) {
    if (node.type !== 'CallExpression') return;
    const { callee } = node;
    const args = node.arguments;
    if (calleeMethodName(callee) === 'promisify' && args[0]) {
      this.markAnswers(args[0], 'callback');
      return;
    }
    const method = callee.type === 'MemberExpression' ? staticKeyName(callee.property, callee.computed) : null;
    if (method !== null && (NOT_ANSWERING_METHODS.has(method) || isBuiltinMethod(method))) return;
    const parent = ancestors[ancestors.length - 2];
    const last = args[args.length - 1];
    if (last && isNodeCallback(last)) this.markAnswers(callee, 'callback');
    else if (
      (parent && parent.type === 'AwaitExpression') ||
      (parent &&
        parent.type === 'MemberExpression' &&
        parent.object === node &&
        PROMISE_METHODS.has(staticKeyName(parent.property, parent.computed)))
    )
      this.markAnswers(callee, 'promise');
    else if (insideTry(ancestors) || /Sync$/.test(method || (callee.type === 'Identifier' ? callee.name : '')))
      this.markAnswers(callee, 'throw');
  }

  markAnswers(node, style) {
    const path = this.scope.pathOf(node);
    if (!path) return;
    const { hint, length } = this.hintAt(path);
    if (!length) hint.answersBy(style);
  }

  recordDefault(path, node) {
    const { hint } = this.hintAt(path);
    const value = this.constant(node);
    if (value !== undefined) {
      hint.addValue(value);
      hint.addType(typeof value);
      hint.addDefault(value);
    } else if (node.type === 'ObjectExpression') hint.addType('object');
    else if (node.type === 'ArrayExpression') hint.addType('array');
    else if (isFunctionNode(node)) hint.addType('function');
    else if (node.type === 'Literal' && typeof node.value === 'boolean') {
      hint.addType('boolean');
      hint.addValue(node.value);
      hint.addDefault(node.value);
    }
  }

  // A default chosen where the option is missing: as TypeScript and Babel compile `{ strict =
  // false } = options` (`_a === void 0 ? false : _a`, `_a !== undefined ? _a : false`), or as
  // hand-written code does with a table of defaults (`typeof opts.charset === 'undefined' ?
  // defaults.charset : opts.charset`, `typeof opts.comma === 'boolean' ? opts.comma :
  // defaults.comma`, `defaults` an object literal of the module).
  visitCompiledDefault(node) {
    const { test, consequent, alternate } = node;
    if (test.type !== 'BinaryExpression' || !EQUALITY.has(test.operator)) return;
    const equal = test.operator === '===' || test.operator === '==';
    const isUndefined = (side) =>
      (side.type === 'UnaryExpression' && side.operator === 'void') ||
      (side.type === 'Identifier' && side.name === 'undefined');
    const typeOf = (side) => (side.type === 'UnaryExpression' && side.operator === 'typeof' ? side.argument : null);
    let checked = null;
    let absentFirst = equal; // the consequent is what the code takes when the option is missing
    for (const [side, other] of [
      [test.left, test.right],
      [test.right, test.left],
    ]) {
      if (isUndefined(other)) checked = side;
      else if (typeOf(side) && typeof this.constant(other) === 'string') {
        checked = typeOf(side);
        // `typeof x === 'boolean' ? x : fallback` takes x when it is there.
        if (this.constant(other) !== 'undefined') absentFirst = !equal;
      }
      if (checked) break;
    }
    if (!checked) return;
    const [fallback, kept] = absentFirst ? [consequent, alternate] : [alternate, consequent];
    const path = this.scope.pathOf(checked);
    if (!path || JSON.stringify(this.scope.pathOf(unwrapCoercion(kept))) !== JSON.stringify(path)) return;
    this.recordDefault(path, this.tableEntry(fallback) || fallback);
  }

  // The value node of `table.key` where `table` is an object literal of the module, else null.
  tableEntry(node) {
    if (node.type !== 'MemberExpression' || node.object.type !== 'Identifier') return null;
    const table = this.context.declarations.byName.get(node.object.name);
    const key = staticKeyName(node.property, node.computed);
    if (!table || table.type !== 'ObjectExpression' || key === null) return null;
    const entry = table.properties.find(
      (property) => property.type === 'Property' && !property.computed && staticKeyName(property.key, false) === key,
    );
    return entry ? entry.value : null;
  }

  visit(node, parent) {
    switch (node.type) {
      case 'Identifier':
        if (node.name === 'arguments' && !this.readingMethod) this.usesArguments = true;
        break;
      case 'BinaryExpression':
        this.visitBinary(node);
        break;
      case 'ConditionalExpression':
        this.visitCompiledDefault(node);
        break;
      case 'UnaryExpression':
        if (node.operator === '-' || node.operator === '+') this.addType(node.argument, 'number');
        break;
      case 'UpdateExpression':
        this.addType(node.argument, 'number');
        break;
      case 'SwitchStatement':
        this.visitSwitch(node);
        break;
      case 'CallExpression':
      case 'NewExpression':
        this.visitCall(node);
        break;
      case 'ForInStatement':
        this.addType(node.right, 'object');
        break;
      case 'ForOfStatement':
        this.addType(node.right, 'array');
        break;
      case 'MemberExpression':
        this.visitMember(node, parent);
        break;
      default:
        break;
    }
  }

  addType(node, type) {
    const path = this.scope.pathOf(node);
    if (!path) return;
    const { hint, length } = this.hintAt(path);
    if (length) hint.addType('string');
    else hint.addType(type);
  }

  // A property read makes the property known, except method calls on built-in types.
  visitMember(node, parent) {
    const isCallee = parent && parent.type === 'CallExpression' && parent.callee === node;
    const key = staticKeyName(node.property, node.computed);
    if (
      isCallee &&
      (FUNCTION_METHODS.has(key) ||
        builtins.STRING_METHODS.has(key) ||
        builtins.ARRAY_METHODS.has(key) ||
        builtins.SHARED_METHODS.has(key) ||
        builtins.OBJECT_METHODS.has(key) ||
        builtins.DATE_METHODS.test(key))
    )
      return;
    if (node.computed) this.noteKeyUse(node.object, node.property, false);
    const path = this.scope.pathOf(node);
    if (path) this.hintAt(path);
  }

  // `obj[prop]`, `prop in obj`, `Object.getOwnPropertyDescriptor(obj, prop)`: `prop` names a key
  // of `obj` (both parameters, or parts of them). `named`: only a key, never an index.
  noteKeyUse(objectNode, keyNode, named) {
    const objectPath = this.scope.pathOf(objectNode);
    const keyPath = objectPath && this.scope.pathOf(keyNode);
    if (keyPath && this.constant(keyNode) === undefined) this.keyUses.push({ objectPath, keyPath, named });
  }

  // A lookup of one parameter in another reaches past its "no such key" branch only when the
  // object has the key: the key parameter gets a string to try first (its own compared string,
  // else 'key') and the object parameter a property of that name. Not for an array and an index.
  linkLookedUpKeys() {
    for (const { objectPath, keyPath, named } of this.keyUses) {
      const object = this.hintAt(objectPath);
      const key = this.hintAt(keyPath);
      if (object.length || key.length) continue;
      const keyTypes = key.hint.types;
      if (keyTypes.size && !keyTypes.has('string') && !keyTypes.has('symbol')) continue;
      if (!named && (object.hint.types.has('array') || object.hint.types.has('string') || keyTypes.size === 0))
        continue;
      const name = key.hint.values.find((value) => typeof value === 'string' && value !== '') || LOOKED_UP_KEY;
      key.hint.addType('string');
      key.hint.addValue(name);
      object.hint.prop(name);
      object.hint.keyed = true;
    }
  }

  visitBinary(node) {
    const { operator, left, right } = node;
    if (EQUALITY.has(operator)) {
      for (const [side, other] of [
        [left, right],
        [right, left],
      ]) {
        if (side.type === 'UnaryExpression' && side.operator === 'typeof') {
          const type = this.constant(other);
          if (typeof type === 'string') this.addType(side.argument, type);
        }
        // `Object.prototype.toString.call(x) === '[object Date]'`
        const tagged = toStringTagArgument(side);
        const tag = tagged && /^\[object (\w+)\]$/.exec(this.constant(other) || '');
        if (tag && TAG_TYPES[tag[1]]) this.addType(tagged, TAG_TYPES[tag[1]]);
        // `x.constructor === RegExp`: an instance of that class.
        if (
          side.type === 'MemberExpression' &&
          staticKeyName(side.property, side.computed) === 'constructor' &&
          other.type === 'Identifier' &&
          builtins.INSTANCE_TYPES[other.name]
        )
          this.addType(side.object, builtins.INSTANCE_TYPES[other.name]);
      }
      this.recordSameKind(left, right);
    }
    if (EQUALITY.has(operator) || RELATIONAL.has(operator)) {
      for (const [side, other] of [
        [left, right],
        [right, left],
      ])
        this.recordComparison(side, other, RELATIONAL.has(operator), side === left ? operator : FLIPPED[operator]);
    }
    if (ARITHMETIC.has(operator)) {
      this.addType(left, 'number');
      this.addType(right, 'number');
    }
    if (operator === 'in') {
      const key = this.constant(left);
      const path = this.scope.pathOf(right);
      if (typeof key === 'string' && path) this.hintAt(path).hint.prop(key);
      else if (key === undefined) this.noteKeyUse(right, left, true);
    }
    if (operator === 'instanceof' && right.type === 'Identifier' && builtins.INSTANCE_TYPES[right.name])
      this.addType(left, builtins.INSTANCE_TYPES[right.name]);
  }

  // Two sides of an equality that stand for values of one kind. `x !== x` holds only for NaN: a
  // value worth trying. Two parameters compared whole or part by part (`a === b`, `a.source ===
  // b.source`: an equality check, a comparator) are values of one kind: each takes the other's
  // values and kinds of object (linkSameKinds), so both get the array, the regex, the NaN the code
  // tells apart in one of them. Not its typeof types: each would thin out the draws of the others
  // (an equality check's objects of one key count, drawn for both sides).
  recordSameKind(left, right) {
    const leftPath = this.scope.pathOf(left);
    const rightPath = this.scope.pathOf(right);
    if (!leftPath || !rightPath) return;
    if (JSON.stringify(leftPath) === JSON.stringify(rightPath)) {
      const { hint, length } = this.hintAt(leftPath);
      if (!length) hint.addValue(NaN);
      return;
    }
    const [leftIndex, ...leftRest] = leftPath;
    const [rightIndex, ...rightRest] = rightPath;
    if (leftIndex !== rightIndex && JSON.stringify(leftRest) === JSON.stringify(rightRest))
      this.sameKinds.push([leftIndex, rightIndex]);
  }

  linkSameKinds() {
    for (const [a, b] of this.sameKinds) {
      const [first, second] = [this.hints[a], this.hints[b]];
      first.comparedWith.add(b);
      second.comparedWith.add(a);
      for (const [to, from] of [
        [first, second],
        [second, first],
      ]) {
        from.types.forEach((type) => INSTANCE_TYPE_NAMES.has(type) && to.addType(type));
        from.values.forEach((value) => to.addValue(value));
      }
    }
  }

  // `side operator other`, the operator as seen from `side` (`0x1f >= code` is `code <= 0x1f`).
  recordComparison(side, other, relational, operator) {
    const codePath = this.scope.codePathOf(side);
    if (codePath) {
      this.recordCodeComparison(codePath, this.constant(other), operator);
      return;
    }
    const path = this.scope.pathOf(side);
    const value = this.constant(other);
    if (!path || value === undefined) return;
    const { hint, length } = this.hintAt(path);
    if (length) {
      if (typeof value === 'number') [value - 1, value, value + 1].forEach((n) => hint.addLength(n));
      return;
    }
    hint.addType(typeof value);
    hint.addValue(value);
    if (relational && typeof value === 'number') {
      hint.addValue(value - 1);
      hint.addValue(value + 1);
    }
  }

  // `code <= 0x1f` where `code = str.codePointAt(i)`: the string gets the characters on both
  // sides of the boundary (U+001F and U+0020), each alone, so the branches that test for control,
  // combining, surrogate or wide characters are reached.
  recordCodeComparison(path, value, operator) {
    if (!Number.isInteger(value)) return;
    const { hint, length } = this.hintAt(path);
    if (length) return;
    const below = operator === '<' || operator === '>=';
    const codes = !RELATIONAL.has(operator) ? [value] : below ? [value - 1, value] : [value, value + 1];
    hint.addType('string');
    for (const code of codes) {
      // Lone surrogates are not text a caller has; code points past U+10FFFF do not exist.
      if (code >= 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff))
        hint.addValue(String.fromCodePoint(code));
    }
  }

  visitSwitch(node) {
    const discriminant = node.discriminant;
    const typeOf = discriminant.type === 'UnaryExpression' && discriminant.operator === 'typeof';
    const path = this.scope.pathOf(typeOf ? discriminant.argument : discriminant);
    if (!path) return;
    const { hint } = this.hintAt(path);
    for (const switchCase of node.cases) {
      const value = switchCase.test ? this.constant(switchCase.test) : undefined;
      if (value === undefined) continue;
      if (typeOf) hint.addType(value);
      else {
        hint.addType(typeof value);
        hint.addValue(value);
      }
    }
  }

  visitCall(node) {
    const { callee } = node;
    const args = node.arguments;
    if (this.context.usesFileSystem) this.visitFileSystemCall(callee, args);
    if (isPathCall(callee, this.context.pathBindings)) this.visitPathCall(args);
    if (callee.type === 'MemberExpression') this.visitMethodCall(node, callee, args);
    if (callee.type === 'Identifier') {
      this.addType(callee, 'function');
      this.visitFunctionCall(callee.name, args);
    }
  }

  // `this.request = request`, `this.platform = options.platform` in a constructor: the fields
  // it stores a parameter (or part of one) in, field -> parameter path.
  storedFields() {
    const stored = new Map();
    walk.simple(this.fn.body, {
      AssignmentExpression: (node) => {
        const { left, right } = node;
        if (left.type !== 'MemberExpression' || left.object.type !== 'ThisExpression') return;
        const field = staticKeyName(left.property, left.computed);
        const path = this.scope.pathOf(right);
        if (field !== null && path && !this.hintAt(path).length && !stored.has(field)) stored.set(field, path);
      },
    });
    return stored;
  }

  // What the class's other methods do with the fields the parameters were stored in holds for
  // the parameters: `this.request.headers['accept-charset']` read in a prototype method, `const
  // { optimizationLevel = 1 } = this.options; if (optimizationLevel >= 2)`, `this.platform ===
  // 'win32'`, `Math.floor(this.width * 0.5)`. Each such method is read as the function's own body
  // is, `this.<field>` standing for the parameter path stored in it (its own parameters for
  // nothing). Without a class (an ES5 constructor), every function of the module.
  followStoredFields() {
    const stored = this.scope.fields;
    if (!stored.size || !this.context.ast) return;
    const outer = this.scope;
    this.readingMethod = true;
    for (const method of this.fieldReaders(stored)) {
      this.scope = new ParameterScope({ params: [] });
      this.scope.fields = stored;
      this.scope.collectAliases(method.body);
      this.scope.collectAliases(method.body);
      this.readBody(method.body);
    }
    this.scope = outer;
    this.readingMethod = false;
  }

  // The functions, other than this one, that read one of `stored`'s fields of `this`: the
  // methods of this function's class, or every function of the module when it has none.
  fieldReaders(stored) {
    const { classes, readers } = thisFieldReads(this.context);
    const owner = classes.get(this.fn);
    return [...readers]
      .filter(([fn, fields]) => fn !== this.fn && (!owner || classes.get(fn) === owner))
      .filter(([, fields]) => [...stored.keys()].some((field) => fields.has(field)))
      .map(([fn]) => fn);
  }

  // `fs.readFile(path, cb)`, `fs$readFile(path, cb)` (a saved original), `rename(from, to)`: the
  // arguments in path positions are paths.
  visitFileSystemCall(callee, args) {
    const name =
      callee.type === 'Identifier'
        ? callee.name.replace(/^.*\$/, '')
        : callee.type === 'MemberExpression' && staticKeyName(callee.property, callee.computed);
    if (!name) return;
    const method = name.replace(/Sync$/, '');
    if (!builtins.FS_PATH_METHODS.has(method)) return;
    const pathArgs = builtins.FS_TWO_PATH_METHODS.has(method) ? args.slice(0, 2) : args.slice(0, 1);
    for (const arg of pathArgs) {
      const path = this.scope.pathOf(arg);
      const { hint, length } = path ? this.hintAt(path) : {};
      if (hint && !length) this.markPath(hint);
    }
  }

  // `dirname(path)`, `path.join(dir, name)`: what Node's path functions take are paths.
  visitPathCall(args) {
    for (const arg of args) {
      const path = this.scope.pathOf(arg);
      const { hint, length } = path ? this.hintAt(path) : {};
      if (hint && !length) this.markPath(hint);
    }
  }

  markDescribed(node) {
    const path = this.scope.pathOf(node);
    const { hint, length } = path ? this.hintAt(path) : {};
    if (hint && !length) hint.described = true;
  }

  markPath(hint) {
    hint.fsPath = true;
    hint.addType('string');
  }

  visitMethodCall(node, callee, args) {
    const method = staticKeyName(callee.property, callee.computed);
    const objectName = callee.object.type === 'Identifier' ? callee.object.name : null;
    const global = objectName && builtins.GLOBAL_CALLS[`${objectName}.${method}`];
    if (global && args[0]) this.addType(args[0], global);
    if (KEY_LOOKUPS.has(`${objectName}.${method}`) && args.length >= 2) this.noteKeyUse(args[0], args[1], true);
    if (DESCRIPTOR_READS.has(`${objectName}.${method}`) && args[0]) this.markDescribed(args[0]);
    // `Object.prototype.hasOwnProperty.call(obj, key)`, `hasOwnProperty.call(obj, key)`
    if (method === 'call' && args.length >= 2 && calleeMethodName(callee.object) === 'hasOwnProperty')
      this.noteKeyUse(args[0], args[1], true);
    if (objectName === 'Math' && args.length) args.forEach((arg) => this.addType(arg, 'number'));
    const regex = this.regexNamed(callee.object);
    if (regex && (method === 'test' || method === 'exec') && args[0]) this.addRegexHint(args[0], regex);
    // `items.map(fn)`: what is handed to a callback-taking method is a function.
    if (builtins.CALLBACK_TAKING_METHODS.has(method)) {
      const callbackArg = method === 'replace' || method === 'replaceAll' ? args[1] : args[0];
      if (callbackArg) this.addType(callbackArg, 'function');
    }

    if (method !== null) this.visitModuleMethodCall(callee.object, method, args);
    const path = this.scope.pathOf(callee.object);
    if (!path || method === null) return;
    const { hint, length } = this.hintAt(path);
    if (length) return;
    // `fn.apply(this, arguments)`: a function, not an object with an `apply` method.
    if (FUNCTION_METHODS.has(method)) hint.addType('function');
    else if (builtins.DATE_METHODS.test(method) && !builtins.STRING_METHODS.has(method)) hint.addType('date');
    else if (builtins.STRING_METHODS.has(method)) hint.addType('string');
    else if (builtins.ARRAY_METHODS.has(method)) hint.addType('array');
    else if (
      builtins.SHARED_METHODS.has(method) &&
      (method === 'indexOf' || method === 'includes' || method === 'slice')
    ) {
      if (!hint.types.has('string') && !hint.types.has('array')) {
        hint.addType('string');
        hint.addType('array');
      }
    } else if (method === 'hasOwnProperty' && args[0]) {
      const key = this.constant(args[0]);
      if (typeof key === 'string') hint.prop(key);
      else if (key === undefined) this.noteKeyUse(callee.object, args[0], true);
    } else if (!builtins.OBJECT_METHODS.has(method) && !builtins.SHARED_METHODS.has(method)) {
      hint.prop(method).addType('function');
    }
    if (builtins.REGEX_TAKING_METHODS.has(method) && args[0]) {
      const argRegex = this.regexNamed(args[0]);
      if (argRegex) hint.addRegex(argRegex);
    }
    // `value.startsWith('--')` says strings beginning with '--' matter.
    if (['startsWith', 'endsWith', 'includes', 'indexOf', 'split'].includes(method) && args[0]) {
      const literal = this.constant(args[0]);
      if (typeof literal === 'string') {
        hint.addValue(literal);
        hint.addValue(method === 'endsWith' ? `x${literal}` : `${literal}x`);
      }
    }
  }

  visitFunctionCall(name, args) {
    if (builtins.NUMBER_FUNCTIONS.has(name) && args[0]) this.addType(args[0], 'number');
    if (builtins.GLOBAL_CALLS[name] && args[0]) this.addType(args[0], builtins.GLOBAL_CALLS[name]);
    const target = this.context.declarations.byName.get(name);
    // `new Minimatch(pattern, options)`: the constructor's hints hold for what is passed to it.
    this.mergeCallee(isClassNode(target) ? methodOf(target, 'constructor') : target, args);
  }

  // `new Minimatch(pattern).match(p)`: what the module's method expects of its parameters holds
  // for what is passed to it. Not `this.tokenize(value)`: a subclass or an instance may replace
  // the method (diff's `arrayDiff.tokenize` takes arrays where the base's splits strings), and a
  // hint that narrows the value to a string then hides the arrays it also takes.
  // So too for an instance the module makes once (`const parser = new YargsParser(); …
  // parser.parse(args, opts)`).
  visitModuleMethodCall(object, method, args) {
    const made =
      object.type === 'Identifier' && !this.scope.pathOf(object)
        ? this.context.declarations.byName.get(object.name)
        : object;
    if (made && made.type === 'NewExpression' && made.callee.type === 'Identifier') {
      const owner = this.context.declarations.byName.get(made.callee.name);
      if (isClassNode(owner)) this.mergeCallee(methodOf(owner, method), args);
    }
  }

  mergeCallee(target, args) {
    if (!isFunctionNode(target) || target === this.fn || this.depth >= PROPAGATION_DEPTH) return;
    // What a module-level helper expects of its parameters holds for what is passed to it.
    const calleeParams = paramHints(target, this.context, this.depth + 1);
    args.forEach((arg, index) => {
      if (!calleeParams[index]) return;
      // `new UI({ width: opts.width || 80, wrap: opts.wrap })`: options handed on re-packed.
      const parts =
        arg.type === 'ObjectExpression'
          ? arg.properties
              .filter((property) => property.type === 'Property')
              .map((property) => [staticKeyName(property.key, property.computed), property.value])
              .filter(([key]) => key !== null && calleeParams[index].hint.props.has(key))
              .map(([key, value]) => [value, calleeParams[index].hint.props.get(key)])
          : [[arg, calleeParams[index].hint]];
      for (const [value, calleeHint] of parts) {
        const path = this.scope.pathOf(value);
        if (!path) continue;
        const { hint, length } = this.hintAt(path);
        if (!length) hint.merge(calleeHint);
      }
    });
  }

  addRegexHint(node, regex) {
    const path = this.scope.pathOf(node);
    if (!path) return;
    const { hint, length } = this.hintAt(path);
    if (length) return;
    hint.addType('string');
    hint.addRegex(regex);
  }

  applyDoc() {
    const { comments, source } = this.context;
    if (!comments) return;
    const docTypes = paramTypesFromDoc(this.fn, comments, source);
    this.fn.params.forEach((param, index) => {
      const name = paramName(param, index);
      for (const [docPath, types] of docTypes) {
        const [root, ...props] = docPath.split('.');
        if (root !== name) continue;
        const hint = this.hints[index].at(props);
        for (const { type, element } of types) {
          hint.addType(type);
          if (element) hint.elementHint().addType(element);
        }
      }
    });
  }
}

// An HTTP message's `headers` (`req.headers['accept']`) hold text: a header read whose type
// nothing else tells is a string.
function textHeaders(hint, depth = 0) {
  if (depth > 3) return;
  for (const [key, prop] of hint.props) {
    if (key === 'headers') for (const header of prop.props.values()) if (!header.types.size) header.addType('string');
    textHeaders(prop, depth + 1);
  }
}

const PROMISE_METHODS = new Set(['then', 'catch', 'finally']);
// Methods that take a listener or a continuation, not a Node-style callback.
const NOT_ANSWERING_METHODS = new Set([
  ...PROMISE_METHODS,
  'on',
  'once',
  'off',
  'addListener',
  'removeListener',
  'prependListener',
  'prependOnceListener',
  'emit',
  'subscribe',
]);
// The first parameter of a Node-style callback names an error; a callback handed on keeps a name
// that says it is one.
const ERROR_PARAMETER = /^(e|er|err|error)\d*$|(Err|Error)\d*$/;
const CALLBACK_ARGUMENT = /^(cb|callback|done|next|CB|\w*Callback|\w*Cb)$/;

function isBuiltinMethod(method) {
  return (
    FUNCTION_METHODS.has(method) ||
    builtins.STRING_METHODS.has(method) ||
    builtins.ARRAY_METHODS.has(method) ||
    builtins.SHARED_METHODS.has(method) ||
    builtins.OBJECT_METHODS.has(method) ||
    builtins.CALLBACK_TAKING_METHODS.has(method) ||
    builtins.DATE_METHODS.test(method)
  );
}

function isNodeCallback(node) {
  if (isFunctionNode(node))
    return node.params.length > 0 && node.params[0].type === 'Identifier' && ERROR_PARAMETER.test(node.params[0].name);
  return node.type === 'Identifier' && CALLBACK_ARGUMENT.test(node.name);
}

// Whether the innermost of `ancestors` (the last) sits in the block of a `try` with a `catch`,
// within the function being read.
function insideTry(ancestors) {
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const node = ancestors[i];
    if (isFunctionNode(node)) return false;
    if (node.type === 'TryStatement' && node.handler && node.block === ancestors[i + 1]) return true;
  }
  return false;
}

// The name an expression ends in: `hasOwnProperty` for `Object.prototype.hasOwnProperty` and for
// a `hasOwnProperty` variable, else null.
function calleeMethodName(node) {
  if (node.type === 'Identifier') return node.name;
  return node.type === 'MemberExpression' ? staticKeyName(node.property, node.computed) : null;
}

// For a module (computed once, kept in its context): `readers`, each function (not an arrow
// function: its `this` is its parent's) that reads fields of `this`, with their names; `classes`,
// the class each method or constructor belongs to.
function thisFieldReads(context) {
  if (context.thisFieldReads) return context.thisFieldReads;
  const readers = new Map();
  const classes = new Map();
  walk.fullAncestor(context.ast, (node, _state, ancestors) => {
    if (node.type === 'MethodDefinition' && isFunctionNode(node.value)) {
      const owner = ancestors[ancestors.length - 3];
      if (owner && isClassNode(owner)) classes.set(node.value, owner);
    }
    if (node.type !== 'MemberExpression' || node.object.type !== 'ThisExpression') return;
    const field = staticKeyName(node.property, node.computed);
    const fn = [...ancestors]
      .reverse()
      .find((ancestor) => isFunctionNode(ancestor) && ancestor.type !== 'ArrowFunctionExpression');
    if (field === null || !fn) return;
    if (!readers.has(fn)) readers.set(fn, new Set());
    readers.get(fn).add(field);
  });
  context.thisFieldReads = { readers, classes };
  return context.thisFieldReads;
}

// The function of a class's method (or constructor) named `name`, or null.
function methodOf(classNode, name) {
  const found = classNode.body.body.find(
    (element) =>
      element.type === 'MethodDefinition' &&
      (name === 'constructor' ? element.kind === 'constructor' : staticKeyName(element.key, element.computed) === name),
  );
  return found ? found.value : null;
}

function paramName(param, index) {
  if (param.type === 'Identifier') return param.name;
  if (param.type === 'AssignmentPattern' || param.type === 'RestElement')
    return paramName(param.left || param.argument, index);
  if (param.type === 'ObjectPattern') return 'options';
  if (param.type === 'ArrayPattern') return 'items';
  return `arg${index + 1}`;
}

// [{ name, hint, rest, hasDefault }] for each parameter of a function node.
// context: { declarations, constants, comments, source, cache: Map }.
function paramHints(fn, context, depth = 0) {
  if (context.cache.has(fn)) return context.cache.get(fn);
  context.cache.set(
    fn,
    fn.params.map((param, index) => ({
      name: paramName(param, index),
      hint: new Hint(),
      rest: false,
      hasDefault: false,
    })),
  );
  const collector = new HintCollector(fn, context, depth);
  const params = collector.run();
  params.usesArguments = collector.usesArguments;
  context.cache.set(fn, params);
  return params;
}

module.exports = { paramHints };
