'use strict';
// Lists what the search can exercise in a module: every exported function (also those hanging
// off an exported function or object, like `bytes.format`) and every exported class with its
// methods, getters, setters and static members. The shape read at run time says what exists;
// the syntax tree supplies parameter names and hints for it.

const { memberAccess } = require('./js-source');
const { isFunctionNode, isClassNode } = require('./declarations');
const { paramHints } = require('./param-hints');
const { Hint } = require('./hint');

const MAX_TARGETS_PER_FILE = 60;

class SyntaxLookup {
  constructor(analysis) {
    this.analysis = analysis;
    this.byName = new Map(analysis.exports.map((info) => [info.name, info]));
  }

  // The static export info for a path of keys from the module ([] is the module itself).
  exportInfo(binding, keys) {
    const rootName = binding.from === 'module' ? null : binding.from === 'default' ? 'default' : binding.key;
    let info = this.byName.get(rootName);
    for (const key of keys) {
      const member = info && info.members.find((candidate) => candidate.name === key && candidate.kind !== 'getter' && candidate.kind !== 'setter');
      info = member ? { ...member, members: isClassNode(member.node) ? classInfoMembers(member.node) : [] } : binding.from === 'module' && keys.length === 1 ? this.byName.get(key) : null;
    }
    return info || null;
  }

  nodeFor(info, fnName) {
    if (info && info.node && (isFunctionNode(info.node) || isClassNode(info.node))) return info.node;
    const declared = fnName && this.analysis.declarations.byName.get(fnName);
    return isFunctionNode(declared) || isClassNode(declared) ? declared : null;
  }

  params(node, length) {
    let fn = node;
    if (isClassNode(node)) {
      const constructor = node.body.body.find((element) => element.kind === 'constructor');
      fn = constructor ? constructor.value : null;
    }
    if (fn && isFunctionNode(fn)) return paramHints(fn, this.analysis.paramContext);
    const params = Array.from({ length }, (_, index) => ({ name: `arg${index + 1}`, hint: new Hint(), rest: false, hasDefault: false }));
    params.usesArguments = length === 0;
    return params;
  }
}

function classInfoMembers(node) {
  return node.body.body.filter((element) => element.type === 'MethodDefinition').map((element) => ({
    name: element.key.name ?? element.key.value, kind: element.kind, static: element.static, node: element.value,
  }));
}

// AST node of a class member (method, getter or setter) by name, instance or static.
function memberNode(classNode, declarations, name, kind, isStatic) {
  if (isClassNode(classNode)) {
    const wanted = { method: 'method', getter: 'get', setter: 'set' }[kind];
    const element = classNode.body.body.find((candidate) => candidate.type === 'MethodDefinition' && candidate.kind === wanted
      && candidate.static === isStatic && (candidate.key.name ?? candidate.key.value) === name);
    return element ? element.value : null;
  }
  const owner = classNode && classNode.id && declarations.attached.get(classNode.id.name);
  const attached = owner && owner.find((member) => member.name === name && member.static === isStatic);
  return attached ? attached.node : null;
}

function buildTargets(file, analysis, bindings) {
  const lookup = new SyntaxLookup(analysis);
  const targets = [];
  const add = (target) => targets.length < MAX_TARGETS_PER_FILE && targets.push({ file: file.path, id: `${file.path}#${target.label}`, ...target });

  const visit = (binding, shape, keys, callee, depth) => {
    const info = lookup.exportInfo(binding, keys);
    const node = lookup.nodeFor(info, shape.fnName);
    if (shape.kind === 'function' || shape.kind === 'class') {
      const params = lookup.params(node, shape.length);
      const base = { label: callee, callee, binding: binding.name, params, async: shape.async, generator: shape.generator };
      if (shape.kind === 'function') add({ kind: 'function', ...base });
      else add({ kind: 'class', ...base, className: shape.fnName, members: classMembers(shape.members, node, analysis, lookup, false) });
      for (const [key, staticShape] of Object.entries(shape.statics || {})) {
        if (staticShape.kind === 'getter') continue;
        if (depth < 2) visit(binding, staticShape, [...keys, key], memberAccess(callee, key), depth + 1);
      }
    } else if (shape.kind === 'object' && depth < 2) {
      for (const [key, memberShape] of Object.entries(shape.members)) {
        visit(binding, memberShape, [...keys, key], memberAccess(callee, key), depth + 1);
      }
    }
  };
  for (const binding of bindings) visit(binding, binding.shape, [], binding.name, 0);
  return targets;
}

function classMembers(memberShapes, classNode, analysis, lookup, isStatic) {
  return memberShapes.map((member) => {
    const node = memberNode(classNode, analysis.declarations, member.name, member.kind, isStatic);
    const params = member.kind === 'getter' ? [] : member.kind === 'setter' && !node
      ? lookup.params(null, 1)
      : lookup.params(node, member.length ?? 1);
    return { name: member.name, kind: member.kind, params, async: Boolean(member.async), generator: Boolean(member.generator) };
  });
}

module.exports = { buildTargets };
