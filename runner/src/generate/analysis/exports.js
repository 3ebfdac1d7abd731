'use strict';
// Finds what a module exports by reading its syntax: CommonJS assignments to `module.exports` and
// `exports.name`, and ES module `export` declarations. Each export is described with its kind and
// the AST node that implements it, so input mining can read its parameters.
//
// Export names: null means the whole CommonJS `module.exports`; 'default' is the ES default export.

const { Declarations, isFunctionNode, isClassNode, staticKeyName, memberChain } = require('./declarations');

function describeFunction(node) {
  return { async: Boolean(node.async), generator: Boolean(node.generator) };
}

function classMembers(node) {
  const members = [];
  for (const element of node.body.body) {
    if (element.type !== 'MethodDefinition') continue;
    const name = element.kind === 'constructor' ? 'constructor' : staticKeyName(element.key, element.computed);
    if (name === null) continue;
    const kind = { get: 'getter', set: 'setter', constructor: 'constructor' }[element.kind] || 'method';
    members.push({ name, kind, static: element.static, node: element.value, ...describeFunction(element.value) });
  }
  return members;
}

function objectMembers(node, declarations) {
  const members = [];
  for (const property of node.properties) {
    if (property.type !== 'Property') continue;
    const name = staticKeyName(property.key, property.computed);
    if (name === null) continue;
    if (property.kind === 'get' || property.kind === 'set') {
      members.push({
        name,
        kind: property.kind === 'get' ? 'getter' : 'setter',
        static: false,
        node: property.value,
        async: false,
        generator: false,
      });
      continue;
    }
    const value = declarations.resolve(property.value);
    if (isFunctionNode(value))
      members.push({ name, kind: 'method', static: false, node: value, ...describeFunction(value) });
    else if (isClassNode(value))
      members.push({ name, kind: 'class', static: false, node: value, async: false, generator: false });
  }
  return members;
}

// Members of a class, of an object literal, or attached to a function (`Fn.prototype.m = …`).
// bindingName: the name a function expression is known by (`var Stack = function () {}`).
function membersOf(node, declarations, bindingName = null) {
  if (isClassNode(node)) return classMembers(node);
  if (node && node.type === 'ObjectExpression') return objectMembers(node, declarations);
  if (isFunctionNode(node)) {
    const ownName = bindingName || declarations.nameOf(node);
    const attached = (ownName && declarations.attached.get(ownName)) || [];
    return attached
      .map((member) => ({ ...member, node: declarations.resolve(member.node) }))
      .filter((member) => isFunctionNode(member.node))
      .map((member) => ({
        name: member.name,
        kind: member.kind,
        static: member.static,
        node: member.node,
        ...describeFunction(member.node),
      }));
  }
  return [];
}

// Describes the value an export is bound to.
function describeValue(name, valueNode, declarations, bindingName) {
  const node = declarations.resolve(valueNode);
  const members = membersOf(node, declarations, bindingName);
  if (isClassNode(node)) return { name, kind: 'class', node, async: false, generator: false, members };
  if (isFunctionNode(node)) {
    // A function with prototype methods is an ES5-style class.
    const kind = members.some((member) => !member.static) ? 'class' : 'function';
    return { name, kind, node, ...describeFunction(node), members };
  }
  if (node && node.type === 'ObjectExpression')
    return { name, kind: 'object', node, async: false, generator: false, members };
  return { name, kind: 'value', node: node || null, async: false, generator: false, members: [] };
}

// `module.exports`, `module.exports.x`, `exports.x` → { whole: true } / { name: 'x' } / null.
function commonJsTarget(left) {
  const chain = left.type === 'MemberExpression' ? memberChain(left) : null;
  if (!chain) return null;
  if (chain.length === 2 && chain[0] === 'module' && chain[1] === 'exports') return { whole: true };
  if (chain.length === 3 && chain[0] === 'module' && chain[1] === 'exports') return { name: chain[2] };
  if (chain.length === 2 && chain[0] === 'exports') return { name: chain[1] };
  return null;
}

// Unwraps `module.exports = exports = fn` into its targets and the value finally assigned.
function assignmentTargets(expression) {
  const targets = [];
  let node = expression;
  while (node.type === 'AssignmentExpression' && node.operator === '=') {
    targets.push(node.left);
    node = node.right;
  }
  return { targets, value: node };
}

function commonJsExports(ast, declarations) {
  const found = new Map();
  for (const statement of ast.body) {
    if (statement.type !== 'ExpressionStatement') continue;
    const { targets, value } = assignmentTargets(statement.expression);
    for (const left of targets) {
      const target = commonJsTarget(left);
      if (!target) continue;
      if (target.whole) {
        const bindingName = value.type === 'Identifier' ? value.name : null;
        const whole = describeValue(null, value, declarations, bindingName);
        found.set(null, whole);
        // `module.exports = { a, b }` exports each property as a named member too.
        if (whole.kind === 'object') {
          for (const member of whole.members.filter((m) => m.kind === 'method' || m.kind === 'class'))
            found.set(member.name, { ...describeValue(member.name, member.node, declarations), node: member.node });
        }
      } else {
        found.set(target.name, describeValue(target.name, value, declarations));
      }
    }
  }
  return [...found.values()];
}

function moduleExports(ast, declarations) {
  const found = [];
  for (const statement of ast.body) {
    if (statement.type === 'ExportDefaultDeclaration') {
      const declaration = statement.declaration;
      found.push(describeValue('default', declaration, declarations, declaration.id && declaration.id.name));
    } else if (statement.type === 'ExportNamedDeclaration') {
      const declaration = statement.declaration;
      if (declaration && declaration.type === 'VariableDeclaration') {
        for (const declarator of declaration.declarations) {
          if (declarator.id.type === 'Identifier')
            found.push(describeValue(declarator.id.name, declarator.init, declarations, declarator.id.name));
        }
      } else if (declaration) {
        found.push(describeValue(declaration.id.name, declaration, declarations, declaration.id.name));
      }
      for (const specifier of statement.specifiers) {
        const exported = specifier.exported.name ?? specifier.exported.value;
        // Re-exports from another file are described where they are defined.
        const local = statement.source ? null : specifier.local;
        found.push(
          local
            ? describeValue(exported, local, declarations, local.name)
            : { name: exported, kind: 'value', node: null, async: false, generator: false, members: [] },
        );
      }
    }
  }
  return found;
}

// Returns { exports, declarations } for a parsed file.
function findExports(parsed) {
  const declarations = new Declarations(parsed.ast);
  const exports = parsed.esm ? moduleExports(parsed.ast, declarations) : commonJsExports(parsed.ast, declarations);
  return { exports, declarations };
}

module.exports = { findExports, membersOf };
