'use strict';
// Settings of the process a module reads as switches: `process.noDeprecation`,
// `process.traceDeprecation`, `process.browser`, `process.stderr.isTTY`. Node leaves them unset
// (or false) unless a command-line flag, a bundler or a terminal sets them, so the code behind
// them never runs in a test that does not set them: depd writes coloured warnings only to a
// terminal and stays silent under --no-deprecation. Scenarios may flip them first, as they flip
// the module's own switches (`kleur.enabled`); the child and the test files put them back after.

const walk = require('acorn-walk');
const { staticKeyName, isFunctionNode } = require('./declarations');

// The output streams, whose `isTTY` says whether a terminal is attached (not stdin: the child
// would open it to put it back).
const STREAMS = new Set(['stdout', 'stderr']);
// Set by the code to say how the process ends, not read as a setting.
const NOT_SWITCHES = new Set(['exitCode', 'domain', 'mainModule']);
const MAX_SWITCHES = 4;
// Environment variables a function reads as settings (`process.env.NO_DEPRECATION`, `DEBUG`),
// named as environment variables are, and unset where tests run (execution/test-environment.js
// sets the others). A scenario may set one first, to each of these values: the wildcard that lists
// and patterns of names take for "all" (depd's `NO_DEPRECATION=*` silences every namespace), and
// an ordinary value, which such a list does not match and a yes/no setting reads as yes.
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
const SET_IN_TESTS = new Set(['PATH', 'LANG', 'NODE_ENV', 'HOME', 'TMPDIR', 'NODE_OPTIONS']);
const ENV_VALUES = ['*', '1'];
const MAX_ENV_SWITCHES = 2;

// `process.a` as ['a'], `process.stderr.isTTY` as ['stderr', 'isTTY'], else null.
function processPath(node) {
  if (node.type !== 'MemberExpression') return null;
  const key = staticKeyName(node.property, node.computed);
  if (key === null) return null;
  if (node.object.type === 'Identifier') return node.object.name === 'process' ? [key] : null;
  const inner = processPath(node.object);
  return inner && inner.length === 1 ? [...inner, key] : null;
}

// Whether Node's own process holds `path` as a switch that is off: unset or false.
function isOffSwitch(path) {
  if (path.length === 1) {
    const [name] = path;
    if (name.startsWith('_') || NOT_SWITCHES.has(name)) return false;
    const value = process[name];
    return value === undefined || value === false;
  }
  return STREAMS.has(path[0]) && path[1] === 'isTTY';
}

// Whether `process.env.NAME` is a setting a test may set: an environment variable's name, unset.
function isEnvSetting(path) {
  return path.length === 2 && path[0] === 'env' && ENV_NAME.test(path[1]) && !SET_IN_TESTS.has(path[1]);
}

// [{ callee: 'process.noDeprecation', value: false }] for the switches the module reads, in
// source order: read, not written, called or deleted; with { callee: 'process.env.DEBUG', value:
// undefined, values: ['*', '1'] } for an environment variable read inside a function (one read
// as the module loads has been read before a test could set it); then [{ callee: 'process', event:
// 'deprecation' }] for the events it emits on the process (`process.emit('deprecation', error)`),
// which only a listener sees (depd emits its warnings as events when the process listens for
// them, and writes them to stderr when it does not).
function processSwitches(ast) {
  const found = new Map();
  const events = new Map();
  const envs = new Map();
  walk.fullAncestor(ast, (node, _state, ancestors) => {
    const emitted = emittedEvent(node);
    if (emitted !== null && !events.has(emitted) && events.size < MAX_SWITCHES)
      events.set(emitted, { callee: 'process', event: emitted });
    const path = processPath(node);
    if (!path) return;
    const env = isEnvSetting(path);
    if (env ? !ancestors.some(isFunctionNode) : !isOffSwitch(path)) return;
    const parent = ancestors[ancestors.length - 2];
    if (parent && parent.type === 'MemberExpression' && parent.object === node) return;
    if (parent && parent.type === 'AssignmentExpression' && parent.left === node) return;
    if (parent && parent.type === 'CallExpression' && parent.callee === node) return;
    if (parent && parent.type === 'UnaryExpression' && parent.operator === 'delete') return;
    const callee = `process.${path.join('.')}`;
    if (env && !envs.has(callee) && envs.size < MAX_ENV_SWITCHES)
      envs.set(callee, { callee, value: undefined, values: ENV_VALUES });
    if (!env && !found.has(callee) && found.size < MAX_SWITCHES) found.set(callee, { callee, value: false });
  });
  return [...found.values(), ...envs.values(), ...events.values()];
}

// The event of `process.emit('name', …)`, else null.
function emittedEvent(node) {
  if (node.type !== 'CallExpression' || !node.arguments.length) return null;
  const path = processPath(node.callee);
  const [name] = node.arguments;
  return path && path.length === 1 && path[0] === 'emit' && name.type === 'Literal' && typeof name.value === 'string'
    ? name.value
    : null;
}

module.exports = { processSwitches };
