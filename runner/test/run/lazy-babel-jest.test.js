'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { lazyTransformer } = require('../../src/run/lazy-babel-jest');

// A run's folder with the given files; removed after the test.
function folder(t, files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-lazy-babel-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  return root;
}

function transformOptions(root, overrides = {}) {
  return {
    config: { cwd: root, rootDir: root },
    configString: JSON.stringify({ rootDir: root }),
    instrument: true,
    supportsStaticESM: false,
    ...overrides,
  };
}

// A transformer whose babel-jest is a stand-in that counts how often it is loaded.
function counted(options = {}) {
  const loads = { count: 0 };
  const transformer = lazyTransformer(options, () => {
    loads.count += 1;
    return {
      createTransformer: () => ({
        getCacheKey: () => 'babel-jest key',
        process: (source) => ({ code: `transformed ${source}` }),
      }),
    };
  });
  return { transformer, loads };
}

test('a cache key needs no Babel; the first transform loads babel-jest, once', (t) => {
  const root = folder(t, { 'a.js': 'module.exports = 1;', '.babelrc': '{}' });
  const { transformer, loads } = counted({ sourceType: 'unambiguous' });
  const key = transformer.getCacheKey('module.exports = 1;', path.join(root, 'a.js'), transformOptions(root));
  assert.match(key, /^[0-9a-f]{32}$/);
  assert.equal(loads.count, 0);
  assert.deepEqual(transformer.process('x', path.join(root, 'a.js'), transformOptions(root)), {
    code: 'transformed x',
  });
  transformer.process('y', path.join(root, 'a.js'), transformOptions(root));
  assert.equal(loads.count, 1);
});

test('the key changes with everything the transform depends on, and only with that', (t) => {
  const root = folder(t, { 'a.js': '', 'b.js': '', 'sub/.babelrc': '{"comments": false}' });
  const file = path.join(root, 'a.js');
  const key = (transformer, source = 'x', at = file, options = transformOptions(root)) =>
    transformer.getCacheKey(source, at, options);
  const { transformer } = counted({ sourceType: 'unambiguous' });
  const first = key(transformer);
  assert.equal(key(counted({ sourceType: 'unambiguous' }).transformer), first);
  const differing = {
    source: key(transformer, 'y'),
    file: key(transformer, 'x', path.join(root, 'b.js')),
    options: key(counted({ sourceType: 'module' }).transformer),
    instrument: key(transformer, 'x', file, transformOptions(root, { instrument: false })),
    esm: key(transformer, 'x', file, transformOptions(root, { supportsStaticESM: true })),
    config: key(transformer, 'x', file, transformOptions(root, { configString: '{"other":1}' })),
  };
  for (const [what, value] of Object.entries(differing)) assert.notEqual(value, first, what);

  // Babel's JSON configuration, anywhere in the folder, by content.
  const other = folder(t, { 'a.js': '', 'b.js': '', 'sub/.babelrc': '{"comments": true}' });
  const moved = (root) =>
    key(
      counted({ sourceType: 'unambiguous' }).transformer,
      'x',
      path.join(root, 'a.js'),
      transformOptions(root, { configString: '{}' }),
    );
  const same = folder(t, { 'a.js': '', 'b.js': '', 'sub/.babelrc': '{"comments": false}' });
  assert.equal(moved(same), moved(root), 'a folder with equal files');
  assert.notEqual(moved(other), moved(root));
});

test('a JavaScript Babel configuration leaves the key to babel-jest', (t) => {
  const root = folder(t, { 'a.js': '', 'babel.config.js': 'module.exports = { presets: [] };' });
  const { transformer, loads } = counted();
  assert.equal(transformer.getCacheKey('x', path.join(root, 'a.js'), transformOptions(root)), 'babel-jest key');
  assert.equal(loads.count, 1);
});

test('a run whose transforms all come from the cache never loads Babel', (t) => {
  const root = folder(t, {
    'sum.js': 'module.exports = (a, b) => a + b;',
    'sum.test.js': "const sum = require('./sum'); test('adds', () => expect(sum(1, 2)).toBe(3));",
  });
  const script = `
    const { useLazyBabelJest } = require(${JSON.stringify(path.resolve(__dirname, '../../src/run/lazy-babel-jest'))});
    const { runJest } = require(${JSON.stringify(path.resolve(__dirname, '../../src/run/run-jest'))});
    useLazyBabelJest();
    runJest(process.cwd(), { testTimeoutMs: 5000, nodePath: null }).then((results) => {
      const babel = Object.keys(require.cache).some((file) => file.includes('/@babel/core/'));
      console.log(JSON.stringify({ passed: results.numPassedTests, covered: Boolean(results.coverageMap), babel }));
    });`;
  const run = () => {
    const child = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout.trim().split('\n').pop());
  };
  assert.deepEqual(run(), { passed: 1, covered: true, babel: true });
  assert.deepEqual(run(), { passed: 1, covered: true, babel: false });
});
