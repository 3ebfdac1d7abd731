'use strict';
// The local names a module gives Node's `path` module and its functions:
//   const path = require('path');                 -> modules: path
//   const { dirname, join } = require('node:path'); -> functions: dirname, join
//   import { resolve as resolvePath } from 'path';  -> functions: resolvePath (for resolve)
// What is handed to them is a path, a string (`dirname(path)`): a parameter that only reaches
// them and a function of an options object (`opts.mkdirAsync(path, opts)`) is otherwise untyped,
// and numbers made every call throw before the code under test did anything.

const walk = require('acorn-walk');
const { staticKeyName, isRequireCall } = require('./declarations');

const PATH_REQUEST = /^(node:)?path(\/posix|\/win32)?$/;
// Functions of `path` whose every argument is a path (basename's second, a suffix, is a string).
const PATH_FUNCTIONS = new Set([
  'basename',
  'dirname',
  'extname',
  'isAbsolute',
  'join',
  'normalize',
  'parse',
  'relative',
  'resolve',
  'toNamespacedPath',
]);

function requestOf(node) {
  if (!node) return null;
  if (isRequireCall(node)) {
    const [argument] = node.arguments;
    return argument && argument.type === 'Literal' && typeof argument.value === 'string' ? argument.value : null;
  }
  // `require('path').posix`, `require('path').dirname`
  if (node.type === 'MemberExpression' && !node.computed) {
    const inner = requestOf(node.object);
    return inner === null ? null : `${inner}/${node.property.name}`;
  }
  return null;
}

// { modules: Set, functions: Map(local name -> function name) } for the module's bindings.
function pathBindings(ast) {
  const modules = new Set();
  const functions = new Map();
  const bindPattern = (pattern, request) => {
    const [base, member] = request.replace(/^node:/, '').split('/');
    if (base !== 'path') return;
    if (member && PATH_FUNCTIONS.has(member)) {
      if (pattern.type === 'Identifier') functions.set(pattern.name, member);
      return;
    }
    if (member && member !== 'posix' && member !== 'win32') return;
    if (pattern.type === 'Identifier') modules.add(pattern.name);
    else if (pattern.type === 'ObjectPattern')
      for (const property of pattern.properties) {
        if (property.type !== 'Property') continue;
        const key = staticKeyName(property.key, property.computed);
        const value = property.value.type === 'AssignmentPattern' ? property.value.left : property.value;
        if (PATH_FUNCTIONS.has(key) && value.type === 'Identifier') functions.set(value.name, key);
      }
  };
  walk.simple(ast, {
    VariableDeclarator(node) {
      const request = requestOf(node.init);
      if (request !== null) bindPattern(node.id, request);
    },
    ImportDeclaration(node) {
      if (!PATH_REQUEST.test(node.source.value)) return;
      for (const specifier of node.specifiers) {
        if (specifier.type === 'ImportSpecifier') {
          const name = specifier.imported.name || specifier.imported.value;
          if (PATH_FUNCTIONS.has(name)) functions.set(specifier.local.name, name);
        } else modules.add(specifier.local.name);
      }
    },
  });
  return { modules, functions };
}

// Whether a call's callee is one of Node's path functions, by the bindings of its module.
function isPathCall(callee, bindings) {
  if (!bindings) return false;
  if (callee.type === 'Identifier') return bindings.functions.has(callee.name);
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return false;
  return (
    bindings.modules.has(callee.object.name) && PATH_FUNCTIONS.has(staticKeyName(callee.property, callee.computed))
  );
}

module.exports = { pathBindings, isPathCall };
