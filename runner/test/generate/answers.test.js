'use strict';
// Functions handed to the code whose failures it handles (an options object of file-system
// methods): read how each answers (a callback, a promise, a throw), stand-ins that answer that way
// with the error codes the module checks for, and the state a test asserts when nothing called
// back.

const test = require('node:test');
const assert = require('node:assert/strict');
const { analyzeSource } = require('../../src/generate/analysis/analyze');
const { paramHints } = require('../../src/generate/analysis/param-hints');
const { InputPool } = require('../../src/generate/search/input-pool');
const { toSource } = require('../../src/generate/search/candidate');
const { Rng } = require('../../src/generate/search/rng');
const { instrumentSource } = require('../../src/generate/execution/instrument');
const { Executor } = require('../../src/generate/execution/executor');

// A remover in three styles, each handling the codes of its own failures.
const REMOVER = `'use strict';
function remove(path, options, cb) {
  options.unlink(path, (er) => {
    if (!er) return cb(null, 'removed');
    if (er.code === 'ENOENT') return cb(null, 'already gone');
    if (er.code === 'EBUSY') return cb(null, 'busy');
    cb(er);
  });
}
function removeSync(path, options) {
  try {
    options.unlinkSync(path);
    return 'removed';
  } catch (er) {
    if (er.code === 'ENOENT') return 'already gone';
    throw er;
  }
}
async function removeAsync(path, options) {
  try {
    await options.unlinkAsync(path);
    return 'removed';
  } catch (er) {
    if (er.code === 'EEXIST') return 'exists';
    throw er;
  }
}
function removeAll(paths, options) {
  const unlink = require('util').promisify(options.unlink);
  return Promise.all(paths.map((path) => unlink(path).catch((er) => er.code)));
}
module.exports = { remove, removeSync, removeAsync, removeAll };
`;

function hintsOf(source, name) {
  const analysis = analyzeSource(source);
  return paramHints(analysis.declarations.byName.get(name), analysis.paramContext);
}

test('a function the code calls with a Node-style callback, awaits, calls in a try or promisifies answers that way', () => {
  assert.equal(hintsOf(REMOVER, 'remove')[1].hint.props.get('unlink').answers, 'callback');
  assert.equal(hintsOf(REMOVER, 'removeSync')[1].hint.props.get('unlinkSync').answers, 'throw');
  assert.equal(hintsOf(REMOVER, 'removeAsync')[1].hint.props.get('unlinkAsync').answers, 'promise');
  assert.equal(hintsOf(REMOVER, 'removeAll')[1].hint.props.get('unlink').answers, 'callback');
  // A listener, an array's callback and a promise's continuation are no answers.
  const listening = `function watch(emitter, items, task) {
    emitter.on('error', (err) => err);
    items.forEach((err) => err);
    task.run().then((value) => value);
  }`;
  const [emitter, items, task] = hintsOf(listening, 'watch');
  assert.equal(emitter.hint.props.get('on').answers, null);
  assert.equal(items.hint.props.has('forEach'), false);
  assert.equal(task.hint.props.get('run').answers, 'promise');
});

test("an options object's answering methods get stand-ins that succeed, then fail alone with each code the module checks", () => {
  const analysis = analyzeSource(REMOVER);
  const [, options] = hintsOf(REMOVER, 'remove');
  const pool = new InputPool(analysis.literals, { ofType: () => [] }, new Rng(1));
  const seeds = pool.seeds(options.hint).map((seed) => toSource(seed));
  const callsBack = (error) =>
    [
      '{',
      '  unlink: jest.fn((...args) => {',
      '    const callback = args[args.length - 1];',
      `    if (typeof callback === 'function') Promise.resolve().then(() => callback(${error}));`,
      '  }),',
      '}',
    ].join('\n');
  // The first seeds keep stand-ins that never answer; one calling back successfully follows.
  assert.equal(seeds[0], '{ unlink: jest.fn() }');
  assert.ok(seeds.includes(callsBack('null')), seeds.join('\n'));
  for (const code of ['ENOENT', 'EBUSY', 'EEXIST'])
    assert.ok(
      seeds.includes(callsBack(`Object.assign(new Error('${code}'), { code: '${code}' })`)),
      `${code}: ${seeds.join('\n')}`,
    );
  const [, syncOptions] = hintsOf(REMOVER, 'removeSync');
  const syncSeeds = pool.seeds(syncOptions.hint).map((seed) => toSource(seed));
  assert.ok(
    syncSeeds.includes(
      "{\n  unlinkSync: jest.fn(() => {\n    throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });\n  }),\n}",
    ),
    syncSeeds.join('\n'),
  );
  const [, asyncOptions] = hintsOf(REMOVER, 'removeAsync');
  const asyncSeeds = pool.seeds(asyncOptions.hint).map((seed) => toSource(seed));
  assert.ok(asyncSeeds.includes('{ unlinkAsync: jest.fn(() => Promise.resolve()) }'));
  assert.ok(
    asyncSeeds.includes(
      "{\n  unlinkAsync: jest.fn(() => Promise.reject(Object.assign(new Error('EEXIST'), { code: 'EEXIST' }))),\n}",
    ),
  );
});

test('a generated suite reaches the branches of every code the module checks, and asserts what the callbacks report', async () => {
  const { generateTests } = require('../../src/generate/pipeline');
  const result = await generateTests(
    {
      files: [{ path: 'remover.js', content: REMOVER }],
      timeBudgetMs: 20000,
      wallLimitMs: 120000,
    },
    { log: () => {} },
  );
  const suite = result.files.find((file) => file.path === '__tests__/remover.test.js').content;
  assert.equal(result.summary.coverage.statements, 100, suite);
  assert.equal(result.summary.coverage.branches, 100, suite);
  // What the callback was called with is asserted.
  assert.match(suite, /expect\(cb\.mock\.calls\)\.toEqual\(\[\[null, 'busy'\]\]\)/);
});

test('where no callback is called, the effects are recorded as the call left them, as the test checks them', async () => {
  const file = '/virtual/retry.js';
  const source = `exports.retry = (options) => { setTimeout(() => options.unlink('a'), 5); };`;
  const { code } = instrumentSource(file, source, { esm: false });
  const executor = new Executor({
    files: [{ path: file, code }],
    coveragePaths: [file],
    limits: { syncMs: 200, asyncMs: 300, callbackMs: 50, loadMs: 1000 },
  });
  try {
    const reply = await executor.run(
      file,
      [{ name: 'lib', from: 'module' }],
      [
        '(async function (__vouch, lib) {',
        'const options = { unlink: jest.fn() };',
        "__vouch.track('options', options);",
        'const done = jest.fn();',
        "__vouch.track('done', done);",
        'await __vouch.step(0, () => lib.retry(options, done));',
        '})',
      ].join('\n'),
      5000,
    );
    assert.deepEqual(reply.outcomes[0], { kind: 'return', value: { t: 'undefined' } });
    // Called 5 ms later, during the wait for `done`: not yet when the test checks.
    assert.equal(reply.effects[0][0].mocks[0].calls.items.length, 0);
  } finally {
    executor.close();
  }
});

test("a module reaching the file system through the package's other modules takes paths: an index wrapping them", async () => {
  const { generateTests } = require('../../src/generate/pipeline');
  const files = [
    { path: 'package.json', content: JSON.stringify({ name: 'make', version: '1.0.0', main: 'index.js' }) },
    // No `fs` here: only lib/make.js requires it.
    { path: 'index.js', content: "const { make } = require('./lib/make');\nmodule.exports = (dir) => make(dir);\n" },
    {
      path: 'lib/make.js',
      content: `const fs = require('fs');
exports.make = (target) => {
  try {
    fs.mkdirSync(target);
    return 'made';
  } catch (er) {
    if (er.code === 'EEXIST') return 'exists';
    throw er;
  }
};
`,
    },
  ];
  const result = await generateTests({ files, timeBudgetMs: 20000, wallLimitMs: 120000 }, { log: () => {} });
  const suite = result.files.find((file) => file.path === '__tests__/index.test.js').content;
  // The paths of the test's folder: an existing file, and a folder whose parent is missing.
  assert.match(suite, /\('(file\.txt|folder|empty)'\)\)\.toBe\('exists'\)/);
  assert.match(suite, /\('missing\/b\.txt'\)\)\.toThrow\(/);
});

test('an options object of several answering methods gets them all succeeding, then each failing while the others succeed', () => {
  const source = `
    function make(path, opts) {
      return opts.mkdirAsync(path).then(() => path, (er) => {
        if (er.code !== 'EEXIST') throw er;
        return opts.statAsync(path).then((st) => st.isDirectory());
      });
    }
    module.exports = make;`;
  const analysis = analyzeSource(source);
  const [, opts] = hintsOf(source, 'make');
  const pool = new InputPool(analysis.literals, { ofType: () => [] }, new Rng(1));
  const seeds = pool.seeds(opts.hint).map((seed) => toSource(seed));
  const resolves = 'jest.fn(() => Promise.resolve())';
  const rejects = "jest.fn(() => Promise.reject(Object.assign(new Error('EEXIST'), { code: 'EEXIST' })))";
  assert.ok(seeds.includes(`{\n  mkdirAsync: ${resolves},\n  statAsync: ${resolves},\n}`), seeds.join('\n'));
  assert.ok(seeds.includes(`{\n  mkdirAsync: ${rejects},\n  statAsync: ${resolves},\n}`), seeds.join('\n'));
  assert.ok(seeds.includes(`{\n  mkdirAsync: ${resolves},\n  statAsync: ${rejects},\n}`), seeds.join('\n'));
  // Each failing alone stays too (code that takes the others from elsewhere when they are missing).
  assert.ok(
    seeds.includes(`{ statAsync: ${rejects} }`) || seeds.includes(`{\n  statAsync: ${rejects},\n}`),
    seeds.join('\n'),
  );
});

test("what a module hands to Node's path functions is a path, however it named path and them", () => {
  const source = `
    const { dirname, join: joinPath } = require('path');
    const path = require('node:path');
    function make(target, opts, made) {
      if (dirname(target) === target) return opts.mkdirAsync(target);
      return opts.statAsync(joinPath(made, 'x'));
    }
    function other(name, base) { return path.relative(base, name); }
    function untouched(value) { return value; }
    module.exports = { make, other, untouched };`;
  const [target, , made] = hintsOf(source, 'make');
  assert.ok(target.hint.fsPath && target.hint.types.has('string'));
  assert.ok(made.hint.fsPath);
  const [name, base] = hintsOf(source, 'other');
  assert.ok(name.hint.fsPath && base.hint.fsPath);
  assert.equal(hintsOf(source, 'untouched')[0].hint.fsPath, false);
});
