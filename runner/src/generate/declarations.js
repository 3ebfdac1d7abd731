'use strict';
// Indexes the declarations of a parsed file that export discovery and input mining look up by
// name: functions and classes anywhere in the file, top-level variables, and members attached
// later with `Name.prototype.method = …` or `Name.helper = …`.

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
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number')) return String(key.value);
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
      if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) remember(node.id.name, node);
      if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && (isFunctionNode(node.init) || isClassNode(node.init))) {
        remember(node.id.name, node.init);
      }
      if (node.type === 'AssignmentExpression' && node.operator === '=') this.collectAttached(node);
      if ((node.type === 'MethodDefinition' || (node.type === 'Property' && isFunctionNode(node.value))) && node.kind !== 'get' && node.kind !== 'set') {
        const name = staticKeyName(node.key, node.computed);
        if (name !== null && name !== 'constructor' && !this.methods.has(name)) this.methods.set(name, node.value);
      }
    });
  }

  // `Foo.prototype.bar = function` (a method) or `Foo.bar = function` (a static member).
  collectAttached(node) {
    const chain = node.left.type === 'MemberExpression' ? memberChain(node.left) : null;
    if (!chain || !isFunctionNode(node.right)) return;
    const [owner] = chain;
    if (chain.length === 3 && chain[1] === 'prototype') this.attach(owner, { name: chain[2], static: false, node: node.right });
    else if (chain.length === 2 && owner !== 'module' && owner !== 'exports') this.attach(owner, { name: chain[1], static: true, node: node.right });
  }

  attach(owner, member) {
    if (!this.attached.has(owner)) this.attached.set(owner, []);
    this.attached.get(owner).push(member);
  }

  // Follows identifiers to what they name: `module.exports = parse` finds `function parse`.
  resolve(node, depth = 0) {
    if (node && node.type === 'Identifier' && depth < 5 && this.byName.has(node.name)) {
      return this.resolve(this.byName.get(node.name), depth + 1);
    }
    return node;
  }
}

module.exports = { Declarations, isFunctionNode, isClassNode, staticKeyName, memberChain };
