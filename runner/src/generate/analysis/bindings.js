'use strict';
// Chooses the local names under which a test file reaches the module it tests, and how the
// child process obtains the same values:
//   CommonJS:  const bytes = require('../bytes');              -> [{ name: 'bytes', from: 'module' }]
//   ES module: import formatDate, { parse } from '../date';     -> default and named bindings
//              import * as config from '../config';           -> { name: 'config', from: 'module' }
// Names must not shadow what Jest tests use.

const { isUsableBindingName, isIdentifierName } = require('../writing/js-source');

// Also never a test's local name (search/scenario.js, NameScope): `const expect = chai.expect()`
// would end the test's own assertions.
const TAKEN = new Set([
  'jest',
  'expect',
  'test',
  'it',
  'describe',
  'beforeEach',
  'afterEach',
  'beforeAll',
  'afterAll',
  'require',
  'module',
  'exports',
  'process',
  'console',
  'Buffer',
  'global',
  'globalThis',
  'Math',
  'JSON',
  'Date',
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'Map',
  'Set',
  'Promise',
  'Symbol',
  'Error',
  'TypeError',
  'RangeError',
  'RegExp',
  'Function',
  'BigInt',
  'Reflect',
  'Proxy',
  'WeakMap',
  'WeakSet',
  'Intl',
  'URL',
  'setTimeout',
  'clearTimeout',
  // helpers a test file may define (test-writer.js)
  'take',
  'collect',
  'calledBack',
  'recordEvents',
  'settleOrder',
]);

function camelCase(text) {
  const words = text.split(/[^A-Za-z0-9$]+/).filter(Boolean);
  const name = words.map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1))).join('');
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

// `src/bytes.js` -> 'bytes'; `lib/ms/index.js` -> 'ms'.
function nameFromPath(filePath) {
  const parts = filePath.split('/');
  const base = parts[parts.length - 1].replace(/\.[^.]*$/, '');
  const stem = base === 'index' && parts.length > 1 ? parts[parts.length - 2] : base;
  return camelCase(stem) || 'subject';
}

function safeName(preferred, fallback, used) {
  let name = isUsableBindingName(preferred) && !TAKEN.has(preferred) ? preferred : fallback;
  if (!isUsableBindingName(name) || TAKEN.has(name)) name = `${name}Module`;
  let unique = name;
  for (let i = 2; used.has(unique); i++) unique = `${name}${i}`;
  used.add(unique);
  return unique;
}

// shape: the exports shape read in the child. Returns [{ name, from, key?, shape }].
function planBindings(filePath, esm, shape) {
  const fileName = nameFromPath(filePath);
  const used = new Set();
  if (!esm) {
    const preferred = shape.kind === 'class' || shape.kind === 'function' ? shape.fnName : fileName;
    return [{ name: safeName(preferred || fileName, fileName, used), from: 'module', shape }];
  }
  const members = shape.kind === 'object' ? shape.members : {};
  const bindings = [];
  if (members.default) {
    const preferred = members.default.fnName || fileName;
    bindings.push({ name: safeName(preferred, fileName, used), from: 'default', shape: members.default });
  }
  for (const key of Object.keys(members)) {
    if (key === 'default' || !isIdentifierName(key)) continue;
    bindings.push({ name: safeName(key, `${key}Export`, used), from: 'named', key, shape: members[key] });
  }
  // Only data exported: the test imports the namespace (`import * as config from`).
  if (!bindings.length) bindings.push({ name: safeName(fileName, fileName, used), from: 'module', shape });
  return bindings;
}

module.exports = { planBindings, TAKEN };
