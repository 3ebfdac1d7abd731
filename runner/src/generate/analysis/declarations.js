'use strict';
// Indexes the declarations of a parsed file that export discovery and input mining look up by
// name: functions and classes anywhere in the file, top-level variables, members attached later
// (`Name.prototype.method = …`, `Name.prototype = { … }`, `Object.assign(Name.prototype, { … })`,
// `Name.helper = …`) and the parents `util.inherits(Child, Parent)` gives constructor functions.

const walk = require('acorn-walk');

function isFunctionNode(node) {
  return node && ['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'].includes(node.type);
}

function isClassNode(node) {
  return node && (node.type === 'ClassDeclaration' || node.type === 'ClassExpression');
}

// Name of a non-computed (or string-literal computed) property key, else null.
function staticKeyName(key, computed) {
  if (!computed && key.type === 'Identifier') return key.name;
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number'))
    return String(key.value);
  if (!computed && key.type === 'PrivateIdentifier') return null;
  return null;
}

// `a.b.c` as ['a', 'b', 'c'] when every step is static, else null.
function memberChain(node) {
  if (node.type === 'Identifier') return [node.name];
  if (node.type !== 'MemberExpression') return null;
  const object = memberChain(node.object);
  const key = staticKeyName(node.property, node.computed);
  return object && key !== null ? [...object, key] : null;
}

class Declarations {
  constructor(ast) {
    this.byName = new Map(); // name -> function, class or variable initializer node
    this.attached = new Map(); // name -> [{ name, static, node }] from assignments
    this.methods = new Map(); // method name -> function node of the first class or object method so named
    this.parents = new Map(); // constructor name -> parent node, from util.inherits(Child, Parent)
    // property name -> function (or identifier naming one) first assigned to it on any object:
    // `deprecate.function = wrapfunction` inside a factory gives the returned function's method
    this.assigned = new Map();
    this.collect(ast);
  }

  collect(ast) {
    const remember = (name, node) => {
      if (name && node && !this.byName.has(name)) this.byName.set(name, node);
    };
    for (const statement of ast.body) {
      if (statement.type === 'VariableDeclaration') {
        for (const declarator of statement.declarations) {
          if (declarator.id.type === 'Identifier') remember(declarator.id.name, declarator.init);
        }
      }
    }
    walk.full(ast, (node) => {
      if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id)
        remember(node.id.name, node);
      if (
        node.type === 'VariableDeclarator' &&
        node.id.type === 'Identifier' &&
        (isFunctionNode(node.init) || isClassNode(node.init))
      ) {
        remember(node.id.name, node.init);
      }
      if (node.type === 'AssignmentExpression' && node.operator === '=') this.collectAttached(node);
      if (node.type === 'CallExpression') this.collectCall(node);
      if (
        (node.type === 'MethodDefinition' || (node.type === 'Property' && isFunctionNode(node.value))) &&
        node.kind !== 'get' &&
        node.kind !== 'set'
      ) {
        const name = staticKeyName(node.key, node.computed);
        if (name !== null && name !== 'constructor' && !this.methods.has(name)) this.methods.set(name, node.value);
      }
    });
  }

  // `Foo.prototype.bar = function` (a method), `Foo.prototype = { … }` (methods, getters and
  // setters) or `Foo.bar = function` (a static member). Values may name a function declared
  // elsewhere (`Foo.prototype.bar = bar`); membersOf resolves them.
  collectAttached(node) {
    const chain = node.left.type === 'MemberExpression' ? memberChain(node.left) : null;
    if (!chain) return;
    const [owner] = chain;
    const key = chain[chain.length - 1];
    if (
      chain.length >= 2 &&
      (isFunctionNode(node.right) || node.right.type === 'Identifier') &&
      !this.assigned.has(key)
    )
      this.assigned.set(key, node.right);
    if (chain.length === 2 && chain[1] === 'prototype' && node.right.type === 'ObjectExpression') {
      this.attachObject(owner, node.right);
      return;
    }
    if (!isFunctionNode(node.right) && node.right.type !== 'Identifier') return;
    if (chain.length === 3 && chain[1] === 'prototype')
      this.attach(owner, { name: chain[2], kind: 'method', static: false, node: node.right });
    else if (chain.length === 2 && owner !== 'module' && owner !== 'exports' && isFunctionNode(node.right)) {
      this.attach(owner, { name: chain[1], kind: 'method', static: true, node: node.right });
    }
  }

  // `Object.assign(Foo.prototype, { … })` and `util.inherits(Child, Parent)` / `inherits(…)`.
  collectCall(node) {
    const callee =
      node.callee.type === 'MemberExpression' || node.callee.type === 'Identifier' ? memberChain(node.callee) : null;
    if (!callee) return;
    const [first, second] = node.arguments;
    const named = callee.join('.');
    if (named === 'Object.assign' && first && first.type === 'MemberExpression') {
      const chain = memberChain(first);
      if (chain && chain.length === 2 && chain[1] === 'prototype') {
        for (const source of node.arguments.slice(1))
          if (source.type === 'ObjectExpression') this.attachObject(chain[0], source);
      }
    }
    if (callee[callee.length - 1] === 'inherits' && first && first.type === 'Identifier' && second)
      this.parents.set(first.name, second);
  }

  attachObject(owner, object) {
    for (const property of object.properties) {
      if (property.type !== 'Property') continue;
      const name = staticKeyName(property.key, property.computed);
      if (name === null) continue;
      const kind = property.kind === 'get' ? 'getter' : property.kind === 'set' ? 'setter' : 'method';
      if (kind !== 'method' || isFunctionNode(property.value) || property.value.type === 'Identifier') {
        this.attach(owner, { name, kind, static: false, node: property.value });
      }
    }
  }

  attach(owner, member) {
    if (!this.attached.has(owner)) this.attached.set(owner, []);
    this.attached.get(owner).push(member);
  }

  // The name a function or class is declared under (`function X`, `var X = function () {}`).
  nameOf(node) {
    if (node && node.id) return node.id.name;
    for (const [name, declared] of this.byName) if (declared === node) return name;
    return null;
  }

  // Follows identifiers to what they name: `module.exports = parse` finds `function parse`.
  resolve(node, depth = 0) {
    if (node && node.type === 'Identifier' && depth < 5 && this.byName.has(node.name)) {
      return this.resolve(this.byName.get(node.name), depth + 1);
    }
    return node;
  }
}

// `require(...)`: a CommonJS load of another module.
function isRequireCall(node) {
  return node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require';
}

module.exports = { Declarations, isFunctionNode, isClassNode, isRequireCall, staticKeyName, memberChain };
