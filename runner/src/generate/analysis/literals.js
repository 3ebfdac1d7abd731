'use strict';
// Mines a module's source for values worth trying as inputs: string and number literals, the
// numbers on both sides of every numeric comparison, folded constants, keys of data tables,
// and strings that match (or just miss) each regular expression.

const walk = require('acorn-walk');
const { foldConstant, collectConstants } = require('./constants');
const { isRequireCall } = require('./declarations');
const { sampleRegex } = require('./regex-sampler');

const MAX_STRINGS = 120;
const MAX_NUMBERS = 80;
const MAX_STRING_LENGTH = 80;
const MAX_REGEX_STRINGS = 400;
const RELATIONAL = new Set(['<', '<=', '>', '>=', '==', '===', '!=', '!==']);

class OrderedSet {
  constructor(limit) {
    this.limit = limit;
    this.items = new Set();
  }

  add(value) {
    if (this.items.size < this.limit) this.items.add(value);
  }

  toArray() {
    return [...this.items];
  }
}

// Regex literals and `new RegExp('literal', 'flags')`.
function regexOf(node, constants) {
  if (node.type === 'Literal' && node.regex) return node.regex;
  if (
    (node.type === 'NewExpression' || node.type === 'CallExpression') &&
    node.callee.type === 'Identifier' &&
    node.callee.name === 'RegExp'
  ) {
    const pattern = foldConstant(node.arguments[0], constants);
    const flags = node.arguments[1] ? foldConstant(node.arguments[1], constants) : '';
    if (typeof pattern === 'string' && typeof flags === 'string') return { pattern, flags };
  }
  return null;
}

// Returns { strings, numbers, bigints, regexes, constants } for a parsed file.
function mineLiterals(ast) {
  const constants = collectConstants(ast);
  const strings = new OrderedSet(MAX_STRINGS);
  const numbers = new OrderedSet(MAX_NUMBERS);
  const bigints = new OrderedSet(10);
  const regexes = [];
  const skipped = new Set(); // module specifiers and directives are not inputs

  walk.full(ast, (node) => {
    if (isRequireCall(node) && node.arguments[0]) skipped.add(node.arguments[0]);
    if (node.source) skipped.add(node.source);
    if (node.type === 'ExpressionStatement' && node.directive) skipped.add(node.expression);
  });

  const addNumber = (value) => {
    if (typeof value === 'number' && Number.isFinite(value)) numbers.add(value);
  };
  walk.full(ast, (node) => {
    if (node.type === 'Literal' && !skipped.has(node)) {
      if (typeof node.value === 'string' && node.value.length <= MAX_STRING_LENGTH) strings.add(node.value);
      else if (typeof node.value === 'number') addNumber(node.value);
      else if (node.bigint !== undefined) bigints.add(node.bigint);
    }
    if (node.type === 'TemplateElement' && node.value.cooked) strings.add(node.value.cooked);
    const regex = regexOf(node, constants);
    if (regex) regexes.push(regex);
    if (node.type === 'BinaryExpression' && RELATIONAL.has(node.operator)) {
      for (const side of [node.left, node.right]) {
        const value = foldConstant(side, constants);
        if (typeof value === 'number') [value, value - 1, value + 1].forEach(addNumber);
      }
    }
    // Keys of objects holding plain values are lookup tables (`{ kb: 1 << 10 }`): the keys are
    // the strings the code expects.
    if (node.type === 'ObjectExpression') {
      for (const property of node.properties) {
        if (
          property.type !== 'Property' ||
          property.computed ||
          property.value.type === 'FunctionExpression' ||
          property.value.type === 'ArrowFunctionExpression'
        )
          continue;
        const key = property.key.type === 'Identifier' ? property.key.name : property.key.value;
        if (typeof key === 'string') strings.add(key);
      }
    }
  });
  for (const value of constants.values()) addNumber(value);

  const regexStrings = [];
  for (const { pattern, flags } of regexes) {
    const { matching, nonMatching } = sampleRegex(pattern, flags);
    regexStrings.push(...matching, ...nonMatching);
  }
  return {
    strings: strings.toArray(),
    regexStrings: [...new Set(regexStrings)].slice(0, MAX_REGEX_STRINGS),
    numbers: numbers.toArray(),
    bigints: bigints.toArray(),
    regexes,
    constants,
  };
}

module.exports = { mineLiterals, regexOf };
