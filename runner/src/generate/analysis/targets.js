'use strict';
// Lists what the search can exercise in a module: every exported function (also those hanging
// off an exported function or object, like `bytes.format`) and every exported class with its
// methods, getters, setters and static members. The shape read at run time says what exists;
// the syntax tree supplies parameter names and hints for it.

const { memberAccess } = require('../writing/js-source');
const { isFunctionNode, isClassNode } = require('./declarations');
const { membersOf } = require('./exports');
const { paramHints } = require('./param-hints');
const { Hint } = require('./hint');

const MAX_TARGETS_PER_FILE = 60;
// Objects are followed down to their members at depth 3 (`styles.color.ansi256.rgb`), as far as
// the loaded shape goes (execution/child/shape.js).
const MAX_OBJECT_DEPTH = 3;

// Finds the syntax behind what the running module exports.
class SyntaxLookup {
  constructor(analysis) {
    this.analysis = analysis;
    this.byName = new Map(analysis.exports.map((info) => [info.name, info]));
  }

  // { node, members } statically known for the value reached by `keys` from a binding, or null.
  find(binding, keys) {
    const rootName = binding.from === 'module' ? null : binding.from === 'default' ? 'default' : binding.key;
    let info = this.byName.get(rootName) || null;
    keys.forEach((key, index) => {
      const member =
        info &&
        info.members.find(
          (candidate) => candidate.name === key && (candidate.kind === 'method' || candidate.kind === 'class'),
        );
      if (member) info = { node: member.node, members: membersOf(member.node, this.analysis.declarations) };
      // `module.exports.format = format` is a CommonJS export of its own.
      else if (binding.from === 'module' && index === 0) info = this.byName.get(key) || null;
      else info = null;
    });
    return info;
  }

  // The function or class node for a value: by its export path, else by its function name (a
  // declaration, or failing that a method of that name).
  node(info, fnName) {
    if (info && (isFunctionNode(info.node) || isClassNode(info.node))) return info.node;
    const wrapped = this.wrappedFunction(info);
    if (wrapped) return wrapped;
    const { declarations } = this.analysis;
    const declared = fnName && declarations.byName.get(fnName);
    if (isFunctionNode(declared) || isClassNode(declared)) return declared;
    return (fnName && declarations.methods.get(fnName)) || null;
  }

  // `module.exports = wrappy(once)`, `exports.strict = wrap(onceStrict)`: a function of the module
  // handed to a helper (often a dependency's) whose result is exported. Null for anything else.
  wrappedFunction(info) {
    const node = info && info.node;
    if (!node || node.type !== 'CallExpression') return null;
    const { declarations } = this.analysis;
    for (const arg of node.arguments) {
      const declared = arg.type === 'Identifier' ? declarations.byName.get(arg.name) : arg;
      if (isFunctionNode(declared)) return declared;
    }
    return null;
  }

  // Parameter hints of a function (a class: of its constructor); without syntax, `length` unknown ones.
  params(node, length) {
    let fn = node;
    if (isClassNode(node)) {
      const constructor = node.body.body.find((element) => element.kind === 'constructor');
      fn = constructor ? constructor.value : null;
    }
    if (fn && isFunctionNode(fn)) return paramHints(fn, this.analysis.paramContext);
    const params = Array.from({ length }, (_, index) => ({
      name: `arg${index + 1}`,
      hint: new Hint(),
      rest: false,
      hasDefault: false,
    }));
    params.usesArguments = length === 0;
    return params;
  }

  // Members of a class and of its superclasses declared in the same file. Members inherited from
  // elsewhere (EventEmitter's `on`, `emit`...) are not the module's code.
  staticMembers(classNode) {
    const members = [];
    for (let node = classNode, depth = 0; node && depth < 5; depth++) {
      const { declarations } = this.analysis;
      members.push(...membersOf(node, declarations));
      const inherited = isFunctionNode(node) ? declarations.parents.get(declarations.nameOf(node)) : null;
      const parent = declarations.resolve(isClassNode(node) ? node.superClass : inherited);
      node = isClassNode(parent) || isFunctionNode(parent) ? parent : null;
    }
    return members;
  }

  // Instance members of a class as the shape lists them, with their parameters: those the
  // submitted code defines, however attached (class bodies, `X.prototype.m = …`,
  // `X.prototype = {…}`, `Object.assign(X.prototype, …)`, superclasses and `util.inherits`
  // parents among the files). Members inherited from elsewhere (EventEmitter's `on`, `emit`...)
  // are not the module's code.
  classMembers(memberShapes, classNode) {
    const known = classNode ? this.staticMembers(classNode) : [];
    return memberShapes
      .filter((member) => member.own)
      .map((member) => {
        const syntax = known.find(
          (candidate) => candidate.name === member.name && candidate.kind === member.kind && !candidate.static,
        );
        const node = syntax
          ? syntax.node
          : member.kind === 'method'
            ? this.analysis.declarations.methods.get(member.name) || null
            : null;
        const params =
          member.kind === 'getter' ? [] : this.params(node, member.kind === 'setter' ? 1 : (member.length ?? 1));
        return {
          name: member.name,
          kind: member.kind,
          params,
          async: Boolean(member.async),
          generator: Boolean(member.generator),
        };
      });
  }
}

// Instances with `emit` and `on` (Node's EventEmitter, eventemitter3, their subclasses) get the
// events they emit recorded and asserted.
function isEventEmitter(memberShapes) {
  const methods = new Set(memberShapes.filter((member) => member.kind === 'method').map((member) => member.name));
  return methods.has('emit') && methods.has('on');
}

// bindings: [{ name, from, key, shape }] (see bindings.js). Returns the targets of one file.
function buildTargets(file, analysis, bindings) {
  const lookup = new SyntaxLookup(analysis);
  const targets = [];
  // Parameters of a method of an object a call returns, by its name (see ScenarioFactory.extend):
  // a method or function so named, else a function assigned to a property so named
  // (`deprecate.function = wrapfunction` in the factory that returns `deprecate`).
  const methodParams = (name) => {
    const { declarations } = analysis;
    const declared = declarations.byName.get(name);
    const assigned = declarations.assigned.has(name) ? declarations.resolve(declarations.assigned.get(name)) : null;
    const node =
      declarations.methods.get(name) ||
      (isFunctionNode(declared) ? declared : null) ||
      (isFunctionNode(assigned) ? assigned : null);
    return node ? lookup.params(node, 0) : null;
  };
  const add = (target) =>
    targets.length < MAX_TARGETS_PER_FILE &&
    targets.push({ file: file.path, id: `${file.path}#${target.label}`, methodParams, ...target });

  // Data tables hanging off an export (`status.redirect = { 300: true, … }`): one read of each,
  // its whole value asserted (ScenarioFactory's `read` step).
  const addTables = (binding, shape, callee) => {
    for (const key of shape.data || []) {
      const access = memberAccess(callee, key);
      add({ kind: 'value', label: access, callee: access, binding: binding.name, params: [] });
    }
  };

  // Boolean switches of the exported objects a target hangs off (`kleur.enabled` for
  // `kleur.red`): scenarios may flip them first. Not on an ES module's namespace, which is read-only.
  const visit = (binding, shape, keys, callee, depth, flags = []) => {
    // Functions of Node's or a dependency's reached through the exports (`exports.inherits =
    // util.inherits`) are not the module's code to test.
    // A dependency's wrapper around a function of the module is the module's, though.
    if (depth > 0 && shape.own === false && !lookup.wrappedFunction(lookup.find(binding, keys))) return;
    if (shape.kind === 'function' || shape.kind === 'class') {
      const node = lookup.node(lookup.find(binding, keys), shape.fnName);
      const base = {
        label: callee,
        callee,
        binding: binding.name,
        params: lookup.params(node, shape.length),
        identity: shape.identity || null,
        async: shape.async,
        generator: shape.generator,
        flags,
      };
      addTables(binding, shape, callee);
      if (shape.kind === 'function') add({ kind: 'function', ...base });
      else
        add({
          kind: 'class',
          ...base,
          className: shape.fnName,
          members: lookup.classMembers(shape.members, node),
          emitter: isEventEmitter(shape.members),
        });
      for (const [key, staticShape] of Object.entries(shape.statics || {})) {
        if (staticShape.kind !== 'getter' && depth < 2)
          visit(binding, staticShape, [...keys, key], memberAccess(callee, key), depth + 1);
      }
    } else if (shape.kind === 'object' && depth < MAX_OBJECT_DEPTH) {
      addTables(binding, shape, callee);
      const writable = !(analysis.esm && binding.from === 'module' && depth === 0);
      const own = writable
        ? Object.entries(shape.flags || {}).map(([key, value]) => ({ callee: memberAccess(callee, key), value }))
        : [];
      for (const [key, memberShape] of Object.entries(shape.members)) {
        const args = [binding, memberShape, [...keys, key], memberAccess(callee, key), depth + 1, [...flags, ...own]];
        // Members three steps down come after every shallower target, so that they never take
        // the file's target cap from what a user calls directly.
        if (depth + 1 >= 3) deeper.push(args);
        else visit(...args);
      }
    }
  };
  const deeper = [];
  // The process's switches the module reads (analysis/process-switches.js) come with every target.
  for (const binding of bindings) visit(binding, binding.shape, [], binding.name, 0, analysis.processSwitches || []);
  while (deeper.length) visit(...deeper.shift());
  // Nothing to call (a data module, a script run for its side effects): loading it and checking
  // what it exports is still a test, and covers its top-level code.
  if (!targets.length) {
    for (const binding of bindings)
      add({ kind: 'value', label: binding.name, callee: binding.name, binding: binding.name, params: [] });
  }
  return targets;
}

module.exports = { buildTargets };
