'use strict';
// What the search calls in a loaded module: the targets read from the shape of its exports.

const test = require('node:test');
const assert = require('node:assert/strict');
const { instrumentSource } = require('../../src/generate/execution/instrument');
const { Executor } = require('../../src/generate/execution/executor');
const { analyzeSource } = require('../../src/generate/analysis/analyze');
const { planBindings } = require('../../src/generate/analysis/bindings');
const { buildTargets } = require('../../src/generate/analysis/targets');

const LIMITS = { syncMs: 200, asyncMs: 300, callbackMs: 50, loadMs: 1000 };

// Loads `source` as /virtual/<name> (instrumented, as generation loads it) and returns its targets
// as [kind, callee] pairs.
async function targetsOf(name, source) {
  const file = `/virtual/${name}`;
  const { code } = instrumentSource(file, source, { esm: false });
  const executor = new Executor({ files: [{ path: file, code }], coveragePaths: [file], limits: LIMITS });
  try {
    const loaded = await executor.load(file, 5000);
    assert.equal(loaded.ok, true, JSON.stringify(loaded));
    const bindings = planBindings(file, false, loaded.shape);
    return buildTargets({ path: name }, analyzeSource(source), bindings).map((target) => [target.kind, target.callee]);
  } finally {
    executor.close();
  }
}

test('an object built by a factory: its non-enumerable groups and the functions behind their lazy getters are targets', async () => {
  // The export is a getter on `module` calling a factory; the groups are defined non-enumerable
  // and hold getters that build objects of functions on first read.
  const source = `
    const wrap = (offset) => (code) => '<' + (code + offset) + '>';
    const lazy = (object, key, get) => Object.defineProperty(object, key, {
      get: () => { const value = get(); Object.defineProperty(object, key, { value, enumerable: true }); return value; },
      enumerable: true, configurable: true,
    });
    function assemble() {
      const styles = { color: { red: [31, 39] } };
      styles.red = { open: 31, close: 39 };
      styles.color.red = styles.red;
      Object.defineProperty(styles, 'color', { value: styles.color, enumerable: false });
      lazy(styles.color, 'ansi', () => ({ code: wrap(0), bright: wrap(60) }));
      return styles;
    }
    Object.defineProperty(module, 'exports', { enumerable: true, get: assemble });
  `;
  assert.deepEqual(await targetsOf('styles.js', source), [
    ['value', 'styles.red'],
    ['function', 'styles.color.ansi.code'],
    ['function', 'styles.color.ansi.bright'],
  ]);
});

test('members three steps down come after every shallower target', async () => {
  const source = `
    const deep = { inner: { parse: (text) => text.trim() } };
    Object.defineProperty(deep, 'hidden', { value: { parse: (text) => text }, enumerable: false });
    module.exports = { deep, format: (n) => String(n) };
  `;
  assert.deepEqual(await targetsOf('lib.js', source), [
    ['value', 'lib.deep'],
    ['function', 'lib.format'],
    ['function', 'lib.deep.inner.parse'],
    ['function', 'lib.deep.hidden.parse'],
  ]);
});

test("a member whose length or name throws when read does not fail the module's load", async () => {
  // chai guards its methods' `length` with a getter that throws, to catch `expect(x).equal.length`.
  const source = `
    function Assertion(value) { this.value = value; }
    Assertion.prototype.equal = function equal(other) { return this.value === other; };
    Object.defineProperty(Assertion.prototype.equal, 'length', {
      get() { throw new Error('Invalid property: equal.length'); },
    });
    const named = () => 1;
    Object.defineProperty(named, 'name', { get() { throw new Error('no name'); } });
    module.exports = { Assertion, named };
  `;
  assert.deepEqual(await targetsOf('lib.js', source), [
    ['class', 'lib.Assertion'],
    ['function', 'lib.named'],
  ]);
});
