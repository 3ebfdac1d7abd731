'use strict';
// Whether a module keeps state between calls: a variable declared at its top level that a
// function assigns (`let pool` filled by `fillPool()`, `cache[key] = value`, `count++`). Each
// scenario ran on a freshly loaded module; tests that share one copy see what earlier tests left
// (nanoid's pool offset, moved back by `nanoid(-1)`, made a later test loop forever), so the
// tests of such a module load it afresh each (writing/test-writer.js).

const walk = require('acorn-walk');

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

// The name a write lands on: `x = …`, `x++`, `x.y = …`, `x[k] = …` all write to x.
function writtenName(target) {
  let node = target;
  while (node.type === 'MemberExpression') node = node.object;
  return node.type === 'Identifier' ? node.name : null;
}

// Whether the function at ancestors[index] runs where it is written, once, as the module loads:
// `(function (Unit) { Unit.Cm = 'cm'; })(Unit || (Unit = {}))`, TypeScript's enums, and
// `(function () { … }).call(this)`.
function invokedInPlace(ancestors, index) {
  const fn = ancestors[index];
  const parent = ancestors[index - 1];
  if (!parent) return false;
  if (parent.type === 'CallExpression' && parent.callee === fn) return true;
  const grandparent = ancestors[index - 2];
  return (
    parent.type === 'MemberExpression' &&
    parent.object === fn &&
    grandparent &&
    grandparent.type === 'CallExpression' &&
    grandparent.callee === parent
  );
}

function keepsState(ast) {
  const topLevel = new Set();
  for (const statement of ast.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
    if (declaration.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations)
      if (declarator.id.type === 'Identifier') topLevel.add(declarator.id.name);
  }
  if (!topLevel.size) return false;
  let found = false;
  const visit = (target, ancestors) => {
    const name = writtenName(target);
    if (!name || !topLevel.has(name)) return;
    if (ancestors.some((node, index) => FUNCTIONS.has(node.type) && !invokedInPlace(ancestors, index))) found = true;
  };
  walk.ancestor(ast, {
    AssignmentExpression: (node, ancestors) => visit(node.left, ancestors),
    UpdateExpression: (node, ancestors) => visit(node.argument, ancestors),
  });
  return found;
}

module.exports = { keepsState };
