'use strict';
// A parameter whose members a function copies onto an object of its own, which it then uses:
//
//   function setup(env) {
//     createDebug.enable = enable;
//     Object.keys(env).forEach((key) => { createDebug[key] = env[key]; });
//     ...
//     createDebug.enable(createDebug.load());        // env.load: a function
//     return createDebug.colors[hash % createDebug.colors.length];   // env.colors: an array
//   }
//
// What the function does with `createDebug.<name>` holds for `env.<name>`, for the names it never
// assigns itself (`enable` is its own: an `env.enable` would replace it). Without this, `env` got
// no hint, every call threw at `createDebug.load()`, and the module got no test.

const walk = require('acorn-walk');
const { staticKeyName } = require('./declarations');

const FUNCTION_METHODS = new Set(['call', 'apply', 'bind']);

// The name of the object `node` copies the members of the parameter named `param` onto, or null:
// `Object.assign(target, param)`, or `Object.keys(param).forEach((key) => { target[key] = param[key]; })`
// (a `for (const key in param)` loop too).
function copyTarget(node, param) {
  const isParam = (expression) => expression && expression.type === 'Identifier' && expression.name === param;
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
    const { object, property } = node.callee;
    const method = staticKeyName(property, node.callee.computed);
    if (
      method === 'assign' &&
      object.type === 'Identifier' &&
      object.name === 'Object' &&
      node.arguments[0] &&
      node.arguments[0].type === 'Identifier' &&
      node.arguments.slice(1).some(isParam)
    )
      return node.arguments[0].name;
    const keysOfParam =
      object.type === 'CallExpression' &&
      object.callee.type === 'MemberExpression' &&
      staticKeyName(object.callee.property, object.callee.computed) === 'keys' &&
      isParam(object.arguments[0]);
    if (keysOfParam && method === 'forEach' && node.arguments[0]) return keyedCopy(node.arguments[0], isParam);
  }
  if (node.type === 'ForInStatement' && isParam(node.right)) return keyedCopy(node.body, isParam);
  return null;
}

// `target[key] = param[key]` inside `node`: the target's name, or null.
function keyedCopy(node, isParam) {
  let target = null;
  walk.simple(node, {
    AssignmentExpression(assignment) {
      const { left, right } = assignment;
      if (
        left.type === 'MemberExpression' &&
        left.computed &&
        left.object.type === 'Identifier' &&
        right.type === 'MemberExpression' &&
        right.computed &&
        isParam(right.object)
      )
        target = left.object.name;
    },
  });
  return target;
}

// Adds to `hint` (the parameter named `param`'s) what `fn`'s body does with the members it copies
// from it: a member called (or handed to `call`, `apply`, checked `typeof … === 'function'`) is a
// function, one indexed or whose `length` is read an array, any other one read is known.
function copiedMemberHints(fn, param, hint) {
  if (fn.body.type !== 'BlockStatement') return;
  let target = null;
  walk.full(fn.body, (node) => {
    target = target || copyTarget(node, param);
  });
  if (!target) return;
  const own = new Set();
  walk.simple(fn.body, {
    AssignmentExpression(node) {
      const { left } = node;
      if (left.type === 'MemberExpression' && left.object.type === 'Identifier' && left.object.name === target) {
        const name = staticKeyName(left.property, left.computed);
        if (name !== null) own.add(name);
      }
    },
  });
  walk.fullAncestor(fn.body, (node, _state, ancestors) => {
    if (node.type !== 'MemberExpression' || node.object.type !== 'Identifier' || node.object.name !== target) return;
    const name = staticKeyName(node.property, node.computed);
    if (name === null || own.has(name)) return;
    const parent = ancestors[ancestors.length - 2];
    if (parent && parent.type === 'AssignmentExpression' && parent.left === node) return;
    const member = hint.prop(name);
    if (!parent) return;
    if (parent.type === 'CallExpression' && parent.callee === node) member.addType('function');
    else if (parent.type === 'MemberExpression' && parent.object === node) {
      const key = staticKeyName(parent.property, parent.computed);
      if (FUNCTION_METHODS.has(key)) member.addType('function');
      else if (parent.computed || key === 'length') member.addType('array');
    } else if (parent.type === 'LogicalExpression' && calledByName(fn.body, declaredName(ancestors.slice(0, -1)))) {
      // `const logFn = self.log || createDebug.log; logFn.apply(self, args)`
      member.addType('function');
    } else if (parent.type === 'UnaryExpression' && parent.operator === 'typeof') {
      const comparison = ancestors[ancestors.length - 3];
      const other =
        comparison &&
        comparison.type === 'BinaryExpression' &&
        (comparison.left === parent ? comparison.right : comparison.left);
      if (other && other.type === 'Literal' && typeof other.value === 'string') member.addType(other.value);
    }
  });
}

// The variable the innermost expression of `ancestors` (a chain of `||`) is declared as, or null.
function declaredName(ancestors) {
  let index = ancestors.length - 1;
  while (index > 0 && ancestors[index].type === 'LogicalExpression') index--;
  const declarator = ancestors[index];
  return declarator && declarator.type === 'VariableDeclarator' && declarator.id.type === 'Identifier'
    ? declarator.id.name
    : null;
}

// Whether `body` calls the variable `name`: `name(…)`, `name.call(…)`, `name.apply(…)`.
function calledByName(body, name) {
  if (!name) return false;
  let called = false;
  const isName = (node) => node.type === 'Identifier' && node.name === name;
  walk.simple(body, {
    CallExpression(node) {
      const { callee } = node;
      if (isName(callee)) called = true;
      else if (
        callee.type === 'MemberExpression' &&
        isName(callee.object) &&
        FUNCTION_METHODS.has(staticKeyName(callee.property, callee.computed))
      )
        called = true;
    },
  });
  return called;
}

module.exports = { copiedMemberHints };
