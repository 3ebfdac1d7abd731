'use strict';
// Mutants of a module: one small change each, of the kinds Stryker makes (a flipped comparison,
// a swapped operator, a condition forced true or false, a string emptied, a regex changed, a
// method call dropped, a block emptied). A test earns its place by the mutants it kills (EvoSuite's rule,
// and the measure): generation runs the chosen tests against a sample of these and adds
// tests from its search that kill the survivors (strengthen.js).

const walk = require('acorn-walk');
const { parseSource } = require('../analysis/parse');
const { NORMALIZING_STRING_METHODS } = require('../analysis/builtins');
const { isRequireCall } = require('../analysis/declarations');

const MAX_MUTANTS = 160;

const EQUALITY = {
  '<': ['<='],
  '<=': ['<'],
  '>': ['>='],
  '>=': ['>'],
  '===': ['!=='],
  '!==': ['==='],
  '==': ['!='],
  '!=': ['=='],
};
const ARITHMETIC = { '+': ['-'], '-': ['+'], '*': ['/'], '/': ['*'], '%': ['*'] };
const LOGICAL = { '&&': ['||'], '||': ['&&'], '??': ['&&'] };
// Operands that bind more loosely than `&&` and `||` (kept in parentheses when rewritten).
const LOOSE_OPERANDS = new Set([
  'LogicalExpression',
  'ConditionalExpression',
  'AssignmentExpression',
  'SequenceExpression',
  'ArrowFunctionExpression',
  'YieldExpression',
]);
const ASSIGNMENT = { '+=': '-=', '-=': '+=', '*=': '/=', '/=': '*=', '%=': '*=' };
// Calls whose result is their receiver, changed: dropping the call keeps the program valid.
const DROPPABLE_METHODS = new Set([
  ...NORMALIZING_STRING_METHODS,
  'sort',
  'reverse',
  'slice',
  'substring',
  'substr',
  'filter',
  'concat',
  'flat',
  'padStart',
  'padEnd',
  'repeat',
]);
const SWAPPED_METHODS = {
  startsWith: 'endsWith',
  endsWith: 'startsWith',
  some: 'every',
  every: 'some',
  min: 'max',
  max: 'min',
  trimStart: 'trimEnd',
  trimEnd: 'trimStart',
};

function isLogicalOperand(node, ancestors) {
  const parent = ancestors[ancestors.length - 2];
  return Boolean(parent && parent.type === 'LogicalExpression');
}

function isDirective(node, ancestors) {
  const parent = ancestors[ancestors.length - 2];
  return parent && parent.type === 'ExpressionStatement' && parent.directive !== undefined;
}

// Strings that name modules or properties, where an empty string only breaks loading.
function isModuleName(node, ancestors) {
  const parent = ancestors[ancestors.length - 2];
  if (!parent) return false;
  if (['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression'].includes(parent.type))
    return true;
  if (isRequireCall(parent)) return true;
  if (parent.type === 'Property' && parent.key === node && !parent.computed) return true;
  return parent.type === 'MemberExpression' && parent.property === node && !parent.computed;
}

// Expressions whose value a table of literals does not hold: reads of variables, properties,
// calls, spreads.
const RUNTIME_VALUES = new Set([
  'Identifier',
  'MemberExpression',
  'CallExpression',
  'NewExpression',
  'UpdateExpression',
  'AssignmentExpression',
  'ThisExpression',
  'ConditionalExpression',
  'LogicalExpression',
  'SpreadElement',
  'AwaitExpression',
]);

// Names a table may hold as entries: `['nginx', 'apache', undefined, 'iana']` is a row.
const GLOBAL_CONSTANTS = new Set(['undefined', 'NaN', 'Infinity']);

// The other entries of the table row a literal sits in: the strings and regexes of the innermost
// array or object literal holding it (`[/(alumn|alg)a$/i, '$1ae']`, `{ code: 'NO', name:
// 'Norway' }`; keys too). A scenario that reaches the row asks with one of them: the regex's
// samples, or the key (`getName('NO')` for an emptied `'Norway'`). Null outside a literal row.
function rowOf(node, ancestors) {
  for (let i = ancestors.length - 2; i >= 0; i--) {
    const holder = ancestors[i];
    if (holder.type === 'Property') continue;
    if (holder.type !== 'ArrayExpression' && holder.type !== 'ObjectExpression') return null;
    const parts =
      holder.type === 'ArrayExpression'
        ? holder.elements
        : holder.properties.flatMap((property) => (property.type === 'Property' ? [property.key, property.value] : []));
    // A literal that holds values read at run time (`{ type: 'NAME', index: i, value: name }`)
    // is a record the code builds, not a row of a table: its strings are no inputs.
    const values =
      holder.type === 'ArrayExpression'
        ? holder.elements
        : holder.properties.map((property) => (property.type === 'Property' ? property.value : property));
    if (values.some((value) => value && RUNTIME_VALUES.has(value.type) && !GLOBAL_CONSTANTS.has(value.name)))
      return null;
    const strings = [];
    const regexes = [];
    for (const part of parts) {
      // An object's keys ask for its values: `{ NO: 'Norway' }` is read with 'NO'.
      if (
        part &&
        part.type === 'Identifier' &&
        holder.type === 'ObjectExpression' &&
        holder.properties.some((property) => property.key === part && !property.computed)
      )
        strings.push(part.name);
      if (!part || part === node || part.type !== 'Literal') continue;
      if (part.regex) regexes.push(part.regex);
      else if (typeof part.value === 'string' && part.value) strings.push(part.value);
    }
    // The key of the entry itself asks first.
    const own =
      holder.type === 'ObjectExpression' &&
      holder.properties.find((property) => property.value === node && !property.computed);
    const ownKey = own ? (own.key.type === 'Identifier' ? own.key.name : String(own.key.value)) : null;
    if (ownKey) strings.sort((a, b) => (b === ownKey) - (a === ownKey));
    return strings.length || regexes.length ? { strings, regexes } : null;
  }
  return null;
}

// Stryker's regex mutants, the commonest kinds: an anchor dropped, a character class negated (or
// no longer negated), a class escape negated (`\d` -> `\D`), a quantifier dropped. Each yields
// valid pattern source, or is left out.
function regexVariants(pattern) {
  const variants = [];
  if (pattern.startsWith('^')) variants.push(pattern.slice(1));
  if (pattern.endsWith('$') && !pattern.endsWith('\\$')) variants.push(pattern.slice(0, -1));
  const classAt = pattern.search(/(^|[^\\])\[/);
  if (classAt >= 0) {
    const open = pattern.indexOf('[', classAt);
    variants.push(
      pattern[open + 1] === '^'
        ? pattern.slice(0, open + 1) + pattern.slice(open + 2)
        : `${pattern.slice(0, open + 1)}^${pattern.slice(open + 1)}`,
    );
  }
  const escape = /\\([dwsDWS])/.exec(pattern);
  if (escape) {
    const flipped = escape[1] === escape[1].toLowerCase() ? escape[1].toUpperCase() : escape[1].toLowerCase();
    variants.push(pattern.slice(0, escape.index) + `\\${flipped}` + pattern.slice(escape.index + 2));
  }
  const quantifier = /([^\\])([+*?])(?!\?)/.exec(pattern);
  if (quantifier && quantifier[1] !== '(' && quantifier[1] !== '|')
    variants.push(pattern.slice(0, quantifier.index + 1) + pattern.slice(quantifier.index + 2));
  return [...new Set(variants)].filter((variant) => {
    try {
      new RegExp(variant); // throws when the variant is no regular expression
      return variant !== pattern;
    } catch {
      return false;
    }
  });
}

function operatorAt(code, from, to, operator) {
  const at = code.slice(from, to).indexOf(operator);
  return at < 0 ? null : from + at;
}

// The value an input likely holds to tell a comparison's mutant from the original: the other
// side's number (a literal, or a constant the module folds: `msAbs >= d`), NaN for a value
// compared with itself.
function comparedValue(node, constants) {
  // `x !== x` tells NaN from every other value.
  if (node.left.type === 'Identifier' && node.right.type === 'Identifier' && node.left.name === node.right.name)
    return 'NaN';
  for (const side of [node.right, node.left]) {
    if (side.type === 'Literal' && typeof side.value === 'number') return String(side.value);
    if (side.type === 'Identifier' && constants && typeof constants.get(side.name) === 'number')
      return String(constants.get(side.name));
  }
  return null;
}

// Returns [{ start, end, replacement, mutator, line, probe, row, regex }] over `code` (JavaScript
// that parses), in source order; at most MAX_MUTANTS, spread evenly over the file when there are
// more. `probe` is text a scenario that kills the mutant likely holds (the emptied string, the
// compared number), or null; `row` the other entries of the table row of a string or regex
// (rowOf), or null; `regex` the original and mutated pattern of a regex mutant.
// constants: the module's folded constants (name -> value), if known.
// limit: how many to return at most (MAX_MUTANTS; Infinity for every one, as the row sweep of
// strengthen.js reads a file's table entries).
function mutantsOf(code, constants = null, limit = MAX_MUTANTS) {
  let ast;
  try {
    ast = parseSource(code).ast;
  } catch {
    return [];
  }
  const mutants = [];
  const add = (start, end, replacement, mutator, probe = null, extra = {}) =>
    mutants.push({ start, end, replacement, mutator, probe, row: null, regex: null, ...extra });
  const binary = (node, table, mutator) => {
    const replacements = table[node.operator];
    if (!replacements) return;
    const at = operatorAt(code, node.left.end, node.right.start, node.operator);
    if (at === null) return;
    const probe = mutator === 'EqualityOperator' ? comparedValue(node, constants) : null;
    for (const replacement of replacements) add(at, at + node.operator.length, replacement, mutator, probe);
  };
  // The operator of `left op right` swapped, with the operands kept whole, as Stryker does: in
  // `a && b && c`, the inner `a && b` becomes `(a || b) && c`, not `a || b && c` (which is
  // `a || (b && c)`: another mutant, which other inputs kill).
  const logical = (node, parent) => {
    const operand = (side) => {
      const text = code.slice(side.start, side.end);
      return LOOSE_OPERANDS.has(side.type) ? `(${text})` : text;
    };
    for (const replacement of LOGICAL[node.operator]) {
      const text = `${operand(node.left)} ${replacement} ${operand(node.right)}`;
      add(node.start, node.end, parent && parent.type === 'LogicalExpression' ? `(${text})` : text, 'LogicalOperator');
    }
  };
  const condition = (test, { onlyFalse = false } = {}) => {
    if (!test || test.type === 'Literal') return;
    if (!onlyFalse) add(test.start, test.end, 'true', 'ConditionalExpression');
    add(test.start, test.end, 'false', 'ConditionalExpression');
  };
  const block = (node) => {
    if (node && node.type === 'BlockStatement' && node.body.length) add(node.start, node.end, '{}', 'BlockStatement');
  };
  walk.fullAncestor(ast, (node, _state, ancestors) => {
    switch (node.type) {
      case 'BinaryExpression':
        binary(node, EQUALITY, 'EqualityOperator');
        // A comparison inside `&&` or `||` forced either way, as Stryker does: `a !== a && b !==
        // b` with `a !== a` made true tells `equal(1, NaN)` from the original.
        if (EQUALITY[node.operator] && isLogicalOperand(node, ancestors)) {
          add(node.start, node.end, 'true', 'ConditionalExpression');
          add(node.start, node.end, 'false', 'ConditionalExpression');
        }
        // `'a' + b` is concatenation: Stryker skips string `+` mutants that only break types.
        if (!(
          node.operator === '+' &&
          [node.left, node.right].some((side) => side.type === 'Literal' && typeof side.value === 'string')
        )) {
          binary(node, ARITHMETIC, 'ArithmeticOperator');
        }
        break;
      case 'AssignmentExpression': {
        // `s += 'x'` builds a string: as Stryker, no `-=` mutant for it.
        const swapped = ASSIGNMENT[node.operator];
        const text =
          node.right.type === 'TemplateLiteral' ||
          (node.right.type === 'Literal' && typeof node.right.value === 'string');
        const at = swapped && !text ? operatorAt(code, node.left.end, node.right.start, node.operator) : null;
        if (at !== null) add(at, at + node.operator.length, swapped, 'AssignmentOperator');
        break;
      }
      case 'LogicalExpression':
        logical(node, ancestors[ancestors.length - 2]);
        break;
      case 'IfStatement':
        condition(node.test);
        block(node.consequent);
        block(node.alternate);
        break;
      case 'ConditionalExpression':
        condition(node.test);
        break;
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'ForStatement':
        condition(node.test, { onlyFalse: true });
        break;
      case 'Literal':
        if (typeof node.value === 'string' && !isDirective(node, ancestors) && !isModuleName(node, ancestors)) {
          add(
            node.start,
            node.end,
            node.value === '' ? '"Stryker was here!"' : '""',
            'StringLiteral',
            node.value || null,
            { row: rowOf(node, ancestors) },
          );
        } else if (node.regex) {
          const { pattern, flags } = node.regex;
          for (const variant of regexVariants(pattern)) {
            add(node.start, node.end, `/${variant}/${flags}`, 'Regex', null, {
              row: rowOf(node, ancestors),
              regex: { pattern, variant, flags },
            });
          }
        } else if (typeof node.value === 'boolean') {
          add(node.start, node.end, String(!node.value), 'BooleanLiteral');
        }
        break;
      case 'UnaryExpression':
        if (node.operator === '!' && node.argument.type !== 'UnaryExpression')
          add(node.start, node.end, code.slice(node.argument.start, node.argument.end), 'BooleanLiteral');
        break;
      case 'UpdateExpression':
        add(
          node.start,
          node.end,
          code.slice(node.start, node.end).replace(node.operator, node.operator === '++' ? '--' : '++'),
          'UpdateOperator',
        );
        break;
      case 'ArrayExpression':
        if (node.elements.length) add(node.start, node.end, '[]', 'ArrayDeclaration');
        break;
      case 'CallExpression': {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') break;
        const name = callee.property.name;
        if (DROPPABLE_METHODS.has(name))
          add(node.start, node.end, code.slice(callee.object.start, callee.object.end), 'MethodExpression');
        if (SWAPPED_METHODS[name])
          add(callee.property.start, callee.property.end, SWAPPED_METHODS[name], 'MethodExpression');
        break;
      }
      default:
        break;
    }
  });
  mutants.sort((a, b) => a.start - b.start || a.end - b.end);
  const lineStarts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
  const located = mutants.map((mutant) => ({ ...mutant, line: lineOf(mutant.start) }));
  if (located.length <= limit) return located;
  const step = located.length / limit;
  return Array.from({ length: limit }, (_, i) => located[Math.floor(i * step)]);
}

function applyMutant(code, mutant) {
  return code.slice(0, mutant.start) + mutant.replacement + code.slice(mutant.end);
}

module.exports = { mutantsOf, applyMutant, regexVariants, MAX_MUTANTS };
