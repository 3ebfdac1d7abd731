'use strict';
// Folds constant expressions such as `var d = h * 24` or `1 << 10` so that comparisons against
// named constants (`if (ms >= d)`) yield the numbers that sit on each side of the boundary.

const walk = require('acorn-walk');

const BINARY = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '%': (a, b) => a % b,
  '**': (a, b) => a ** b,
  '<<': (a, b) => a << b,
  '>>': (a, b) => a >> b,
  '>>>': (a, b) => a >>> b,
  '|': (a, b) => a | b,
  '&': (a, b) => a & b,
  '^': (a, b) => a ^ b,
};

// The value of a node built from literals, known constants and arithmetic, else undefined.
function foldConstant(node, constants) {
  if (!node) return undefined;
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'number' || typeof node.value === 'string' ? node.value : undefined;
    case 'Identifier':
      return constants.get(node.name);
    case 'UnaryExpression': {
      const value = foldConstant(node.argument, constants);
      if (typeof value !== 'number') return undefined;
      return node.operator === '-' ? -value : node.operator === '+' ? value : undefined;
    }
    case 'BinaryExpression': {
      const left = foldConstant(node.left, constants);
      const right = foldConstant(node.right, constants);
      if (left === undefined || right === undefined || !BINARY[node.operator]) return undefined;
      if (typeof left === 'string' || typeof right === 'string')
        return node.operator === '+' ? left + right : undefined;
      const value = BINARY[node.operator](left, right);
      return Number.isFinite(value) ? value : undefined;
    }
    case 'ParenthesizedExpression':
      return foldConstant(node.expression, constants);
    default:
      return undefined;
  }
}

// name -> value for every variable whose initializer folds to a constant, in source order.
// Names declared more than once are dropped: they are not constants.
function collectConstants(ast) {
  const constants = new Map();
  const declaredTwice = new Set();
  walk.simple(ast, {
    VariableDeclarator(node) {
      if (node.id.type !== 'Identifier') return;
      const name = node.id.name;
      if (constants.has(name)) declaredTwice.add(name);
      const value = foldConstant(node.init, constants);
      if (value !== undefined) constants.set(name, value);
    },
  });
  for (const name of declaredTwice) constants.delete(name);
  return constants;
}

module.exports = { foldConstant, collectConstants };
