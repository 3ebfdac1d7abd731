'use strict';
// Which expressions inside a function read one of its parameters, and where inside it: with
// `function f(options) { const { retries } = options; return retries + options.base.x; }`,
// `retries` reads [0, 'retries'] and `options.base.x` reads [0, 'base', 'x'] ('[]' stands for
// any element). Local variables that alias a parameter (or part of one) are followed.

const walk = require('acorn-walk');
const { NORMALIZING_STRING_METHODS } = require('./builtins');
const { staticKeyName } = require('./declarations');

// Calls on a parameter that read the parameter itself (a string up to case and spaces).
const NORMALIZING_METHODS = new Set(NORMALIZING_STRING_METHODS);

// Paths are arrays: [parameterIndex, 'prop', '[]', ...].
class ParameterScope {
  constructor(fn) {
    this.aliases = new Map();
    this.defaults = [];
    this.destructured = []; // { path, type }: `{ a }` says the value is an object with `a`
    this.codes = new Map(); // local name -> path of the string whose character code it holds
    // { path, node }: an object literal of defaults a parameter is merged over
    // (`Object.assign({ alias: undefined }, options)`): its keys are the parameter's properties.
    this.mergedDefaults = [];
    // field -> path: fields of `this` a constructor stored a parameter (or part of one) in
    // (`this.platform = options.platform`), read as that parameter wherever `this.platform` is.
    this.fields = new Map();
    fn.params.forEach((param, index) => this.bindPattern(param, [index]));
  }

  bindPattern(pattern, path) {
    switch (pattern.type) {
      case 'Identifier':
        this.aliases.set(pattern.name, path);
        break;
      case 'AssignmentPattern':
        this.defaults.push({ path, node: pattern.right });
        this.bindPattern(pattern.left, path);
        break;
      case 'RestElement':
        this.bindPattern(pattern.argument, path);
        break;
      case 'ArrayPattern':
        this.destructured.push({ path, type: 'array' });
        pattern.elements.forEach((element) => element && this.bindPattern(element, [...path, '[]']));
        break;
      case 'ObjectPattern':
        this.destructured.push({ path, type: 'object' });
        for (const property of pattern.properties) {
          if (property.type === 'RestElement') continue;
          const key = staticKeyName(property.key, property.computed);
          if (key === null) continue;
          this.destructured.push({ path: [...path, key], type: null });
          this.bindPattern(property.value, [...path, key]);
        }
        break;
      default:
        break;
    }
  }

  // The parameter path an expression reads, or null.
  pathOf(node) {
    if (!node) return null;
    switch (node.type) {
      case 'Identifier':
        return this.aliases.get(node.name) || null;
      case 'ChainExpression':
        return this.pathOf(node.expression);
      case 'LogicalExpression':
        return node.operator === '&&' ? null : this.pathOf(node.left);
      // `typeof name === 'object' ? name : { name }`: the branch that is a parameter as it is.
      case 'ConditionalExpression':
        return this.pathOf(node.consequent) || this.pathOf(node.alternate);
      // `name.toLowerCase()` compared with 'low' says 'low' is a value worth giving `name`.
      case 'CallExpression': {
        const { callee } = node;
        const method = callee.type === 'MemberExpression' ? staticKeyName(callee.property, callee.computed) : null;
        if (isObjectAssign(callee)) return this.mergedPathOf(node.arguments);
        return NORMALIZING_METHODS.has(method) && !node.arguments.length ? this.pathOf(callee.object) : null;
      }
      // `{ ...defaults, ...options }`: what is read from it is read from the parameter.
      case 'ObjectExpression':
        return this.mergedPathOf(
          node.properties.filter((property) => property.type === 'SpreadElement').map((spread) => spread.argument),
        );
      case 'MemberExpression': {
        if (node.object.type === 'ThisExpression') {
          const field = staticKeyName(node.property, node.computed);
          return (field !== null && this.fields.get(field)) || null;
        }
        const base = this.pathOf(node.object);
        if (!base) return null;
        const key = staticKeyName(node.property, node.computed);
        return [...base, key !== null && !/^\d+$/.test(key) ? key : '[]'];
      }
      default:
        return null;
    }
  }

  // Notes the object literals of defaults that `init`, an alias of the parameter path `path`,
  // merges the parameter over.
  noteMergedDefaults(init, path) {
    let literals = [];
    if (init.type === 'CallExpression' && isObjectAssign(init.callee))
      literals = init.arguments.filter((argument) => argument.type === 'ObjectExpression');
    else if (init.type === 'ObjectExpression') literals = [init];
    for (const node of literals) {
      if (!this.mergedDefaults.some((known) => known.node === node)) this.mergedDefaults.push({ path, node });
    }
  }

  // The parameter path the last of `sources` reads (its properties win a merge), or null.
  mergedPathOf(sources) {
    for (let i = sources.length - 1; i >= 0; i--) {
      const path = this.pathOf(sources[i]);
      if (path) return path;
    }
    return null;
  }

  // The path of the string whose character code an expression is: `str.charCodeAt(i)`,
  // `str.codePointAt(i)`, or a local variable holding one (`const code = str.codePointAt(i)`).
  codePathOf(node) {
    if (!node) return null;
    if (node.type === 'Identifier') return this.codes.get(node.name) || null;
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return null;
    const method = staticKeyName(node.callee.property, node.callee.computed);
    if (method !== 'charCodeAt' && method !== 'codePointAt') return null;
    const path = this.pathOf(node.callee.object);
    return path && path[path.length - 1] !== 'length' ? path : null;
  }

  // Local variables that name a parameter's value: `const opts = options || {}`, `const { a } = opts`,
  // `const cookie = typeof name === 'object' ? name : { name }`.
  collectAliases(body) {
    walk.full(body, (node) => {
      if (node.type === 'VariableDeclarator' && node.init) {
        const path = this.pathOf(node.init);
        if (path) this.bindPattern(node.id, path);
        if (path) this.noteMergedDefaults(node.init, path);
        const code = this.codePathOf(node.init);
        if (code && node.id.type === 'Identifier') this.codes.set(node.id.name, code);
      } else if (node.type === 'AssignmentExpression' && node.operator === '=' && node.left.type === 'Identifier') {
        const path = this.pathOf(node.right);
        if (path && !this.aliases.has(node.left.name)) this.aliases.set(node.left.name, path);
        const code = this.codePathOf(node.right);
        if (code && !this.codes.has(node.left.name)) this.codes.set(node.left.name, code);
      }
    });
  }
}

// The parameters of a function that declares none and reads `arguments` instead, as the names
// it gives them: `var args = Array.prototype.slice.call(arguments); var file = args.shift();
// data = args.shift()` gives ['file', 'data'], `var cb = arguments[2]` a third. Positions no name
// is read into are null. Nested functions (their own `arguments`) are not read. A last argument
// checked to be a function (`typeof arguments[arguments.length - 1] == 'function'`) is a
// `callback` after the named ones.
function argumentsParameters(fn) {
  if (fn.params.length || fn.type === 'ArrowFunctionExpression') return [];
  const lists = new Set(); // names holding a copy of `arguments`
  const names = [];
  let shifted = 0;
  let lastIsFunction = false;
  const bind = (name, value) => {
    if (isArgumentsCopy(value)) {
      lists.add(name);
      return;
    }
    let index = null;
    if (value.type === 'CallExpression' && value.callee.type === 'MemberExpression' && !value.arguments.length) {
      const { object, property } = value.callee;
      if (
        object.type === 'Identifier' &&
        lists.has(object.name) &&
        staticKeyName(property, value.callee.computed) === 'shift'
      )
        index = shifted++;
    } else if (value.type === 'MemberExpression' && value.computed && isArguments(value.object)) {
      if (value.property.type === 'Literal' && Number.isInteger(value.property.value)) index = value.property.value;
    }
    if (index === null || index > 5 || names[index]) return;
    if (!names.includes(name)) names[index] = name;
  };
  walk.recursive(fn.body, null, {
    Function() {},
    VariableDeclarator(node, state, c) {
      if (node.id.type === 'Identifier' && node.init) bind(node.id.name, node.init);
      if (node.init) c(node.init, state);
    },
    AssignmentExpression(node, state, c) {
      if (node.operator === '=' && node.left.type === 'Identifier') bind(node.left.name, node.right);
      c(node.right, state);
    },
    UnaryExpression(node, state, c) {
      if (node.operator === 'typeof' && isLastArgument(node.argument, lists)) lastIsFunction = true;
      c(node.argument, state);
    },
  });
  const params = Array.from(names, (name) => name || null);
  if (lastIsFunction && (params.length || lists.size) && !params.includes('callback')) params.push('callback');
  return params;
}

// `arguments[arguments.length - 1]`, or the same of a copy of `arguments`.
function isLastArgument(node, lists) {
  if (node.type !== 'MemberExpression' || !node.computed) return false;
  const list = node.object;
  const isList = isArguments(list) || (list.type === 'Identifier' && lists.has(list.name));
  const index = node.property;
  return (
    isList &&
    index.type === 'BinaryExpression' &&
    index.operator === '-' &&
    index.right.type === 'Literal' &&
    index.right.value === 1 &&
    index.left.type === 'MemberExpression' &&
    index.left.object.type === list.type &&
    index.left.object.name === list.name &&
    staticKeyName(index.left.property, index.left.computed) === 'length'
  );
}

function isArguments(node) {
  return node.type === 'Identifier' && node.name === 'arguments';
}

// `Array.prototype.slice.call(arguments)`, `[].slice.call(arguments, 0)`, `Array.from(arguments)`,
// `[...arguments]`.
function isArgumentsCopy(node) {
  if (node.type === 'ArrayExpression')
    return (
      node.elements.length === 1 &&
      node.elements[0] &&
      node.elements[0].type === 'SpreadElement' &&
      isArguments(node.elements[0].argument)
    );
  if (node.type !== 'CallExpression' || !node.arguments.length || !isArguments(node.arguments[0])) return false;
  const { callee } = node;
  if (callee.type !== 'MemberExpression') return false;
  const method = staticKeyName(callee.property, callee.computed);
  if (method === 'from') return callee.object.type === 'Identifier' && callee.object.name === 'Array';
  return (
    method === 'call' &&
    callee.object.type === 'MemberExpression' &&
    staticKeyName(callee.object.property, callee.object.computed) === 'slice'
  );
}

// `Object.assign`.
function isObjectAssign(callee) {
  return (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'Identifier' &&
    callee.object.name === 'Object' &&
    staticKeyName(callee.property, callee.computed) === 'assign'
  );
}

module.exports = { ParameterScope, argumentsParameters };
