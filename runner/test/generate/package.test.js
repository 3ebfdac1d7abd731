'use strict';
// The package model: package.json read as npm reads it, the public surface, the order of
// targets, what is skipped and why, which files the suite's folder holds, programs.

const test = require('node:test');
const assert = require('node:assert/strict');
const { PackageModel } = require('../../src/generate/package/package-model');
const { readPackageJson } = require('../../src/generate/package/package-json');
const { pathReason, looksMinified, looksBundled } = require('../../src/generate/package/file-roles');
const { cliScenarios } = require('../../src/generate/program/cli-scenarios');
const { writeProgramTest, programCase, testPathFor } = require('../../src/generate/program/cli-test-writer');

const files = (map) =>
  Object.entries(map).map(([path, content]) => ({
    path,
    content: typeof content === 'string' ? content : JSON.stringify(content),
  }));
// A package of these files beside this package.json.
const packageOf = (manifest, sources) => new PackageModel(files({ 'package.json': manifest, ...sources }));
// A package named p of these files beside its package.json.
const packageP = (sources) => packageOf({ name: 'p' }, sources);
const reasons = (model) => Object.fromEntries(model.skipped.map((entry) => [entry.path, entry.reason]));

test('package.json is normalized as npm reads it: legacy dependency shapes, a bin string, no refusal', () => {
  assert.deepEqual(readPackageJson(JSON.stringify({ name: 'a', dependencies: [] })).data.dependencies, {});
  assert.deepEqual(readPackageJson(JSON.stringify({ name: 'a', dependencies: ['x@^1', 'y'] })).data.dependencies, {
    x: '^1',
    y: '',
  });
  assert.deepEqual(readPackageJson(JSON.stringify({ name: 'a', bin: './cli.js' })).data.bin, { a: './cli.js' });
  assert.deepEqual(readPackageJson(JSON.stringify({ name: '.bad name', main: 'x.js' })).data.main, 'x.js');
  assert.deepEqual(readPackageJson('not json').data, {});
});

test("paths name the package's own tests, benchmarks, examples, fixtures and declarations", () => {
  assert.equal(pathReason('test/test.js'), 'own_test');
  assert.equal(pathReason('lib/__tests__/a.js'), 'own_test');
  assert.equal(pathReason('src/a.spec.ts'), 'own_test');
  assert.equal(pathReason('index.test-d.ts'), 'own_test');
  assert.equal(pathReason('benchmark/run.js'), 'benchmark');
  assert.equal(pathReason('examples/demo.js'), 'example');
  assert.equal(pathReason('test/fixtures/x.js'), 'own_test');
  assert.equal(pathReason('src/fixtures/x.js'), 'fixture');
  assert.equal(pathReason('index.d.ts'), 'type_declaration');
  assert.equal(pathReason('lib/testing.js'), null);
  assert.equal(pathReason('lib/index.js'), null);
  assert.ok(looksMinified('dist/a.min.js', 'x'));
  assert.ok(looksMinified('dist/a.js', `${'var a=1;'.repeat(400)}\n`));
  assert.ok(!looksMinified('lib/a.js', 'const a = 1;\n'.repeat(300)));
  assert.ok(
    looksBundled(
      "(function (global, factory) { typeof exports === 'object' && typeof module !== 'undefined' ? module.exports = factory() : typeof define === 'function' && define.amd ? define(factory) : 0 })",
    ),
  );
});

test('targets: what the entry point reaches first, in the order it reaches it, then the other sources', () => {
  const model = new PackageModel(
    files({
      'package.json': { name: 'p', main: 'lib/main.js' },
      'lib/main.js': "module.exports = { b: require('./b'), s: require('p/sub/s') };",
      'lib/b.js': "module.exports = require('./c.js');",
      'lib/c.js': 'module.exports = 1;',
      'a-first-by-name.js': 'module.exports = 2;',
      'sub/s.js': 'module.exports = 3;',
    }),
  );
  assert.deepEqual(model.targets, ['lib/main.js', 'lib/b.js', 'sub/s.js', 'lib/c.js', 'a-first-by-name.js']);
  assert.deepEqual(model.summary().entryPoints, [{ path: 'lib/main.js', via: 'main' }]);
});

test("a package's own tests, tooling, minified copies and bundles are skipped with reasons and left out of the suite's folder", () => {
  const umd =
    "(function (g, f) { typeof exports === 'object' && typeof module !== 'undefined' ? module.exports = f() : typeof define === 'function' && define.amd ? define(f) : 0 })(this, function () { return 1; });";
  const model = packageP({
    'index.js': "module.exports = require('./lib/a');",
    'lib/a.js': "module.exports = () => require('./helper-fixture-free');",
    'lib/helper-fixture-free.js': 'module.exports = 1;',
    'test/test.js': "suite('x', () => {});",
    'test/helpers.js': 'module.exports = {};',
    'bench/speed.js': "require('../index');",
    'dist/p.min.js': 'x',
    'dist/p.umd.js': umd,
    'jest.config.js': 'module.exports = {};',
    '.mocharc.js': "module.exports = { ui: 'tdd' };",
    // A build's task file (jake's, as gulp's and grunt's) runs inside its tool, with its globals.
    'jakefile.js': "task('build', () => {});",
    'index.d.ts': 'export {};',
  });
  assert.deepEqual(reasons(model), {
    'index.d.ts': 'type_declaration',
    'test/test.js': 'own_test',
    'test/helpers.js': 'own_test',
    'bench/speed.js': 'benchmark',
    'dist/p.min.js': 'minified',
    'dist/p.umd.js': 'bundle',
    'jest.config.js': 'tooling',
    '.mocharc.js': 'tooling',
    'jakefile.js': 'tooling',
  });
  assert.deepEqual(model.targets, ['index.js', 'lib/a.js', 'lib/helper-fixture-free.js']);
  assert.deepEqual(model.runPaths.sort(), ['index.js', 'lib/a.js', 'lib/helper-fixture-free.js', 'package.json']);
});

test("a skipped file that a kept source requires stays in the suite's folder; what the entry point reaches is never skipped by its path", () => {
  const model = packageP({
    'index.js': 'module.exports = 0;',
    'other.js': "module.exports = require('./fixtures/table.js');",
    'fixtures/table.js': 'module.exports = [1, 2];',
  });
  assert.equal(reasons(model)['fixtures/table.js'], 'fixture');
  assert.ok(model.runPaths.includes('fixtures/table.js'));
  const reached = packageP({
    'index.js': "module.exports = require('./test/util');",
    'test/util.js': 'module.exports = 1;',
  });
  assert.deepEqual(reached.targets, ['index.js', 'test/util.js']);
});

test('a dual "type": "module" package: ES module twins skipped, a platform variant with undeclared dependencies skipped, .cjs tests', () => {
  const model = new PackageModel(
    files({
      'package.json': {
        name: 'd',
        type: 'module',
        exports: {
          '.': { import: './esm/index.js', require: './cjs/index.cjs', types: './index.d.ts' },
          './x': { 'react-native': './native.js', default: './x.js' },
        },
      },
      'esm/index.js': 'export const a = 1;',
      'cjs/index.cjs': 'exports.a = 1;',
      'x.js': "export { a } from './esm/index.js';",
      'native.js': "import r from 'expo-random'; export const b = r;",
      'index.d.ts': 'export {};',
    }),
  );
  assert.deepEqual(reasons(model), {
    'index.d.ts': 'type_declaration',
    'esm/index.js': 'es_module_twin',
    'native.js': 'platform_variant',
  });
  // x.js reaches the ES module twin, which then stays in the folder (it is needed).
  assert.deepEqual(model.targets, ['cjs/index.cjs', 'x.js']);
  assert.ok(model.runPaths.includes('esm/index.js'));
  assert.equal(model.testFormat('cjs/index.cjs'), 'module');
  assert.equal(model.formatOf('cjs/index.cjs'), 'commonjs');
  assert.equal(model.formatOf('x.js'), 'module');
  assert.equal(model.summary().type, 'module');
});

// A CommonJS build in lib/ with its ES module copy in es/, named by the legacy "module" field.
const MODULE_FIELD_PACKAGE = {
  'package.json': { name: 'm', main: 'lib/index.js', module: 'es/index.js' },
  'lib/index.js': 'exports.a = 1;',
  'es/index.js': "export * from './a.js';",
  'es/a.js': 'export const a = 1;',
};

test('the legacy "module" field\'s copy of the CommonJS build is its twin; without one an ES module build is a target', () => {
  const twin = new PackageModel(files(MODULE_FIELD_PACKAGE));
  assert.deepEqual(reasons(twin), { 'es/index.js': 'es_module_twin', 'es/a.js': 'es_module_twin' });
  const only = new PackageModel(
    files({ 'package.json': { name: 'm', type: 'module', exports: './index.js' }, 'index.js': 'export const a = 1;' }),
  );
  assert.deepEqual(only.targets, ['index.js']);
});

test('bin entries are programs, never targets; files over the cap are skipped with it', () => {
  const model = new PackageModel(
    files({
      'package.json': { name: 'c', bin: { c: 'bin/c.js' } },
      'bin/c.js': "#!/usr/bin/env node\nrequire('../lib/one');",
      'lib/one.js': 'module.exports = 1;',
      'lib/two.js': 'module.exports = 2;',
      'lib/three.js': 'module.exports = 3;',
    }),
    { cap: 2 },
  );
  assert.deepEqual(model.programs, [{ name: 'c', path: 'bin/c.js' }]);
  assert.ok(!model.targets.includes('bin/c.js'));
  assert.deepEqual(model.targets, ['lib/one.js', 'lib/three.js']);
  assert.deepEqual(reasons(model), { 'lib/two.js': 'over_cap' });
  assert.ok(!model.runPaths.includes('lib/two.js'));
  assert.deepEqual(model.summary().targets, { tested: 2, found: 3, cap: 2 });
});

test("a skipped file that only files over the cap require leaves the suite's folder: every run instruments its files", () => {
  const model = new PackageModel(
    files({ ...MODULE_FIELD_PACKAGE, 'lib/zz-over.js': "module.exports = require('../es/a.js');" }),
    { cap: 1 },
  );
  assert.deepEqual(model.targets, ['lib/index.js']);
  assert.deepEqual(reasons(model), {
    'es/index.js': 'es_module_twin',
    'es/a.js': 'es_module_twin',
    'lib/zz-over.js': 'over_cap',
  });
  assert.deepEqual(model.runPaths.sort(), ['lib/index.js', 'package.json']);
});

test("a program's command lines come from its source; its test finds it relative to the test file and runs it in an empty folder", () => {
  const scenarios = cliScenarios("if (argv[0] === '--force') {} if (flag === '-n') {}");
  assert.deepEqual(
    scenarios.slice(0, 3).map((s) => s.args),
    [[], ['--help'], ['--version']],
  );
  assert.ok(scenarios.some((s) => s.args[0] === '--force') && scenarios.some((s) => s.args[0] === '-n'));
  const program = { name: 'c', path: 'bin/c.js' };
  const testPath = testPathFor(program, '.test.js');
  assert.equal(testPath, 'bin/__tests__/c.program.test.js');
  const text = writeProgramTest({ program, testPath }, [
    programCase(program, { args: ['--help'], stdin: '' }, { status: 0, stdout: 'usage\n', stderr: '' }),
  ]);
  assert.match(text, /const PROGRAM = path\.join\(__dirname, '\.\.', 'c\.js'\);/);
  assert.match(text, /const cwd = fs\.mkdtempSync\(/);
  assert.match(text, /expect\(result\.stdout\)\.toBe\('usage\\n'\);/);
});

test('an exports leaf Node never selects (an earlier `node` condition shadows `default`) and what only other platforms reach are platform variants', () => {
  const model = packageOf(
    {
      exports: {
        '.': {
          node: { require: './dist/index.js', import: './wrapper.mjs' },
          browser: { require: './dist/browser/index.js' },
          default: './dist/esm-browser/index.js',
        },
      },
      browser: { './dist/rng.js': './dist/rng-browser.js' },
      name: 'u',
      main: './dist/index.js',
    },
    {
      'dist/index.js': "exports.v4 = require('./v4.js');",
      'dist/v4.js': "module.exports = () => require('./rng.js')();",
      'dist/rng.js': "module.exports = () => require('crypto').randomBytes(16);",
      'dist/rng-browser.js': 'module.exports = () => crypto.getRandomValues(new Uint8Array(16));',
      'dist/browser/index.js': "exports.v4 = require('../rng-browser.js');",
      'dist/esm-browser/index.js': "export { default as v4 } from './v4.js';",
      'dist/esm-browser/v4.js': 'export default () => window.crypto.getRandomValues(new Uint8Array(16));',
      'wrapper.mjs': "import u from './dist/index.js'; export const v4 = u.v4;",
    },
  );
  assert.deepEqual(model.targets, ['dist/index.js', 'dist/v4.js', 'dist/rng.js']);
  assert.deepEqual(reasons(model), {
    'wrapper.mjs': 'es_module_twin',
    'dist/rng-browser.js': 'platform_variant',
    'dist/browser/index.js': 'platform_variant',
    'dist/esm-browser/index.js': 'platform_variant',
    'dist/esm-browser/v4.js': 'platform_variant',
  });
  const esm = model.skipped.find((entry) => entry.path === 'dist/esm-browser/index.js');
  assert.match(esm.message, /reached by exports\["\."\]\.default/);
  assert.deepEqual(
    model.entryPoints().map((entry) => entry.path),
    ['dist/index.js', 'wrapper.mjs'],
  );
});

test('a bin without an extension run by Node is a program; the module it runs that exports nothing is no target', () => {
  const model = packageOf(
    { name: 'u', main: 'lib/index.js', bin: { u: './bin/u' } },
    {
      'bin/u': "#!/usr/bin/env node\nrequire('../lib/cli');",
      'lib/cli.js': "const { id } = require('./index');\nconsole.log(id(process.argv[2]));\nprocess.exit(0);",
      'lib/index.js': 'exports.id = (x) => x;',
      'lib/options.js': 'exports.parse = (argv) => argv.slice(2);',
      'bin/shell': '#!/bin/sh\necho hi',
    },
  );
  assert.deepEqual(model.programs, [{ name: 'u', path: 'bin/u' }]);
  assert.deepEqual(model.targets, ['lib/index.js', 'lib/options.js']);
  assert.deepEqual(reasons(model), { 'lib/cli.js': 'program_module' });
  // The program needs it: it stays in the suite's folder.
  assert.ok(model.runPaths.includes('lib/cli.js') && model.runPaths.includes('bin/u'));
});

test("subpath imports (package.json's `imports`, `#name`) are edges, never undeclared packages", () => {
  const model = packageOf(
    {
      name: 'c',
      type: 'module',
      exports: './source/index.js',
      imports: {
        '#styles': './source/vendor/styles.js',
        '#support': { node: './source/vendor/support.js', default: './source/vendor/support-browser.js' },
      },
    },
    {
      'source/index.js':
        "import styles from '#styles';\nimport support from '#support';\nexport default { styles, support };",
      'source/vendor/support.js': "import tty from 'node:tty';\nexport default tty.isatty(1);",
      'source/vendor/support-browser.js': 'export default false;',
      'source/vendor/styles.js': 'export default { red: [31, 39] };',
      'source/extra.js': "import styles from '#styles';\nexport const red = styles.red;",
    },
  );
  assert.deepEqual(model.targets.slice(0, 3), [
    'source/index.js',
    'source/vendor/styles.js',
    'source/vendor/support.js',
  ]);
  assert.ok(model.targets.includes('source/extra.js'));
  // The target Node never selects for `#support` is another platform's.
  assert.deepEqual(reasons(model), { 'source/vendor/support-browser.js': 'platform_variant' });
});

test('TypeScript sources shipped beside their compiled output are skipped; the compiled files are tested', () => {
  const model = packageOf(
    { name: 't', main: 'dist/index.js', types: 'dist/index.d.ts' },
    {
      'dist/index.js': "exports.add = require('./math/add').add;",
      'dist/math/add.js': 'exports.add = (a, b) => a + b;',
      'dist/extra.js': 'exports.extra = 1;',
      'dist/index.d.ts': 'export declare const add: (a: number, b: number) => number;',
      'lib/index.ts': "export { add } from './math/add';",
      'lib/math/add.ts': 'export const add = (a: number, b: number): number => a + b;',
      'lib/extra.ts': 'export const extra = 1;',
      'lib/only.ts': 'export const only = (s: string): string => s.trim();',
    },
  );
  assert.deepEqual(model.targets, ['dist/index.js', 'dist/math/add.js', 'dist/extra.js', 'lib/only.ts']);
  assert.deepEqual(reasons(model), {
    'dist/index.d.ts': 'type_declaration',
    'lib/index.ts': 'typescript_source',
    'lib/math/add.ts': 'typescript_source',
    'lib/extra.ts': 'typescript_source',
  });
  assert.match(model.skipped.find((entry) => entry.path === 'lib/math/add.ts').message, /of dist\/math\/add\.js/);
  assert.ok(!model.runPaths.includes('lib/math/add.ts'));
});

test("a file's require cycle, to load it through: the entry points that reach it, then the cycle's files that reach the most", () => {
  const model = packageP({
    'index.js': "module.exports = require('./lib/core');",
    'lib/core.js': "const utils = require('./utils'); require('./extra'); exports.x = utils.upper('x');",
    'lib/extra.js': 'module.exports = 1;',
    'lib/utils.js': "exports.upper = require('./upper');",
    'lib/upper.js': "require('./core'); module.exports = (text) => text;",
    'lib/alone.js': "require('./upper');",
  });
  // lib/core.js reaches 4 files, lib/utils.js 3; lib/extra.js and lib/alone.js are not in the cycle.
  assert.deepEqual(model.cycleEntries('lib/upper.js'), ['index.js', 'lib/core.js', 'lib/utils.js']);
  assert.deepEqual(model.cycleEntries('lib/alone.js'), []);
});
