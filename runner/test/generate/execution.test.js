'use strict';
// Execution in the child process: scenarios run against instrumented code, endless loops and
// process.exit cannot take generation down, and the clock can be moved.

const test = require('node:test');
const assert = require('node:assert/strict');
const { instrumentSource } = require('../../src/generate/execution/instrument');
const { Executor } = require('../../src/generate/execution/executor');

const LIMITS = { syncMs: 200, asyncMs: 300, callbackMs: 50, loadMs: 1000 };
const FILE = '/virtual/lib.js';
const SOURCE = `
exports.double = (n) => { if (n > 10) return 'big'; return n * 2; };
exports.spin = () => { for (;;) {} };
exports.leave = () => process.exit(1);
exports.now = () => new Date().getFullYear();
exports.wait = () => new Promise(() => {});
exports.call = (fn) => fn(1, 2);
exports.later = (fn) => { setImmediate(() => fn(null, 'done')); };
exports.service = new (class Service { ping() { return 'pong'; } })();
`;

function program(body) {
  return `(async function (__vouch, lib) {\n${body}\n})`;
}

// Runs fn with an executor of FILE holding `source` (SOURCE unless given), with LIMITS unless
// `limits` is given and the other environment `elsewhere` if given.
async function withExecutor(fn, source = SOURCE, { limits = LIMITS, elsewhere } = {}) {
  const { code } = instrumentSource(FILE, source, { esm: false });
  const executor = new Executor({ files: [{ path: FILE, code }], coveragePaths: [FILE], limits, elsewhere });
  try {
    return await fn(executor);
  } finally {
    executor.close();
  }
}

const run = (executor, body, clockShiftMs = 0) =>
  executor.run(FILE, [{ name: 'lib', from: 'module' }], program(body), 5000, { clockShiftMs });

// Runs lib.<method>(<name>) with <name> a tracked jest.fn(<implementation>).
const runWithMock = (executor, name, implementation, method) =>
  run(
    executor,
    [
      `const ${name} = jest.fn(${implementation});`,
      `__vouch.track('${name}', ${name});`,
      `await __vouch.step(0, () => lib.${method}(${name}));`,
    ].join('\n'),
  );

// The value of `expression` (over `lib`, the module `main`) in one step, run by an executor over
// `files` (every file with code covered).
async function stepValue(files, main, expression) {
  const coveragePaths = files.filter((file) => file.code !== undefined).map((file) => file.path);
  const executor = new Executor({ files, coveragePaths, limits: LIMITS });
  try {
    const reply = await executor.run(
      main,
      [{ name: 'lib', from: 'module' }],
      program(`await __vouch.step(0, () => ${expression});`),
      5000,
    );
    assert.equal(reply.ok, true, JSON.stringify(reply));
    return reply.outcomes[0].value;
  } finally {
    executor.close();
  }
}

// Runs fn({ executor, elsewhere, valuesOf }) with an executor whose second run (a moved clock) is the
// other environment: `elsewhere` its home and temporary folders, valuesOf(step, shift) the items
// of the array a step returns, run with the clock moved by `shift`.

async function withElsewhereExecutor(source, fn) {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-elsewhere-test-'));
  const elsewhere = { home: path.join(root, 'home'), tmp: path.join(root, 'tmp') };
  Object.values(elsewhere).forEach((dir) => fs.mkdirSync(dir));
  try {
    return await withExecutor(
      (executor) => {
        const valuesOf = async (step, shift) =>
          (await run(executor, `await __vouch.step(0, () => ${step});`, shift)).outcomes[0].value.items.map(
            (item) => item.v,
          );
        return fn({ executor, elsewhere, valuesOf });
      },
      source,
      { elsewhere },
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test("a request's deadline counts from when the child has started, not from its spawn", async () => {
  await withExecutor(async (executor) => {
    // Starting Node and the child's loader takes far longer than 30 ms; loading lib.js does not.
    const loaded = await executor.load(FILE, 30);
    assert.equal(loaded.ok, true, JSON.stringify(loaded));
    const spun = await run(executor, 'await __vouch.step(0, () => lib.double(2));');
    assert.equal(spun.ok, true);
    // After a child is replaced (an endless loop), the next request waits for the new one too.
    const lost = await executor.run(FILE, [{ name: 'lib', from: 'module' }], program('lib.spin();'), 300);
    assert.equal(lost.lost, 'timeout');
    assert.equal((await executor.load(FILE, 30)).ok, true);
  });
});

test("a returned class instance is described with its prototype's methods, by name, for follow-up calls", async () => {
  await withExecutor(async (executor) => {
    const reply = await run(executor, 'await __vouch.step(0, () => lib.service);');
    assert.equal(reply.ok, true);
    const [outcome] = reply.outcomes;
    assert.equal(outcome.value.ctor, 'Service');
    assert.deepEqual(outcome.value.methods, ['ping']);
    // Plain objects and Node's own classes have none of the code's methods to list.
    const plain = await run(
      executor,
      'await __vouch.step(0, () => ({ a: 1 })); await __vouch.step(1, () => new Map());',
    );
    assert.deepEqual(
      plain.outcomes.map((step) => step.value.methods),
      [undefined, undefined],
    );
  });
});

test('loads a module and describes its exports', async () => {
  await withExecutor(async (executor) => {
    const loaded = await executor.load(FILE, 5000);
    assert.equal(loaded.ok, true);
    assert.deepEqual(Object.keys(loaded.shape.members), [
      'double',
      'spin',
      'leave',
      'now',
      'wait',
      'call',
      'later',
      'service',
    ]);
    // An exported class instance exposes the methods of its class.
    assert.deepEqual(Object.keys(loaded.shape.members.service.members), ['ping']);
  });
});

test('records outcomes and the coverage keys a scenario executed', async () => {
  await withExecutor(async (executor) => {
    const small = await run(executor, 'await __vouch.step(0, () => lib.double(2));');
    assert.deepEqual(small.outcomes, [{ kind: 'return', value: { t: 'number', v: 4 } }]);
    const big = await run(executor, 'await __vouch.step(0, () => lib.double(11));');
    assert.deepEqual(big.outcomes[0].value, { t: 'string', v: 'big' });
    // The two calls take different sides of the `if`.
    assert.ok(small.keys.includes('0:b0.1') && !small.keys.includes('0:b0.0'));
    assert.ok(big.keys.includes('0:b0.0') && !big.keys.includes('0:b0.1'));
  });
});

test('stops an endless loop, an endless promise and process.exit without losing the child', async () => {
  await withExecutor(async (executor) => {
    const spin = await run(executor, 'await __vouch.step(0, () => lib.spin());');
    assert.deepEqual(spin.outcomes, [{ kind: 'timeout' }]);
    const wait = await run(executor, 'await __vouch.step(0, () => lib.wait());');
    assert.deepEqual(wait.outcomes, [{ kind: 'timeout' }]);
    const leave = await run(executor, 'await __vouch.step(0, () => lib.leave());');
    assert.deepEqual(leave.disturbances, ['process.exit(1)']);
    const after = await run(executor, 'await __vouch.step(0, () => lib.double(1));');
    assert.deepEqual(after.outcomes[0].value, { t: 'number', v: 2 });
    assert.equal(executor.restarts, 0);
  });
});

test('records the calls a jest.fn() callback received', async () => {
  await withExecutor(async (executor) => {
    const reply = await runWithMock(executor, 'callback', '(a, b) => a + b', 'call');
    assert.deepEqual(reply.outcomes[0].value, { t: 'number', v: 3 });
    assert.deepEqual(reply.effects[0][0].mocks[0].calls, {
      t: 'array',
      items: [
        {
          t: 'array',
          items: [
            { t: 'number', v: 1 },
            { t: 'number', v: 2 },
          ],
        },
      ],
    });
  });
});

test('waits briefly for a callback that is called asynchronously', async () => {
  await withExecutor(async (executor) => {
    const reply = await runWithMock(executor, 'done', '', 'later');
    assert.deepEqual(reply.outcomes[0], { kind: 'return', value: { t: 'undefined' }, calledBack: [0] });
    assert.deepEqual(reply.effects[0][0].mocks[0].calls.items[0].items[1], { t: 'string', v: 'done' });
  });
});

test('moves the clock the code under test reads', async () => {
  await withExecutor(async (executor) => {
    const thisYear = new Date().getFullYear();
    const plain = await run(executor, 'await __vouch.step(0, () => lib.now());');
    const shifted = await run(executor, 'await __vouch.step(0, () => lib.now());', 400 * 24 * 3600 * 1000);
    assert.equal(plain.outcomes[0].value.v, thisYear);
    assert.ok(shifted.outcomes[0].value.v > thisYear);
  });
});

test('runs a scenario with Jest fake timers: a timer fires only when the scenario moves the clock', async () => {
  const { instrumentSource } = require('../../src/generate/execution/instrument');
  const file = '/virtual/later.js';
  const { code } = instrumentSource(
    file,
    'exports.later = (callback, ms) => { setTimeout(() => callback(Date.now() > 0), ms); return "scheduled"; };',
    { esm: false },
  );
  const executor = new Executor({ files: [{ path: file, code }], coveragePaths: [file], limits: LIMITS });
  try {
    const body = `const callback = jest.fn(); __vouch.track('callback', callback);
      await __vouch.step(0, () => lib.later(callback, 1000));
      await __vouch.step(1, () => { jest.advanceTimersByTime(500); });
      await __vouch.step(2, () => { jest.advanceTimersByTime(500); });`;
    const reply = await executor.run(file, [{ name: 'lib', from: 'module' }], program(body), 5000, {
      fakeTimers: true,
    });
    assert.equal(reply.ok, true);
    const calls = reply.effects.map((effects) => effects[0].mocks[0].calls.items.length);
    assert.deepEqual(calls, [0, 0, 1]);
    // The real clock is back once the scenario is over.
    assert.equal(
      (
        await executor.run(
          file,
          [{ name: 'lib', from: 'module' }],
          program(`await __vouch.step(0, () => typeof setTimeout(() => {}, 1).unref);`),
          5000,
        )
      ).outcomes[0].value.v,
      'function',
    );
  } finally {
    executor.close();
  }
});

test("tells the module's own class members from inherited library ones, and records events a scenario causes", async () => {
  const { instrumentSource } = require('../../src/generate/execution/instrument');
  const file = '/virtual/store.js';
  const source = `const EventEmitter = require('events');
class Store extends EventEmitter {
  set(key, value) { this.emit('set', key, value); return this; }
  get size() { return 0; }
}
module.exports = Store;`;
  const { code } = instrumentSource(file, source, { esm: false });
  const executor = new Executor({ files: [{ path: file, code }], coveragePaths: [file], limits: LIMITS });
  try {
    const loaded = await executor.load(file, 5000);
    const members = loaded.shape.members;
    assert.deepEqual(
      members.filter((member) => member.own).map((member) => `${member.kind} ${member.name}`),
      ['method set', 'getter size'],
    );
    assert.ok(members.some((member) => member.name === 'emit' && !member.own));
    const body = `const store = (await __vouch.step(0, () => new Store())).value;
      const events = recordEvents(store); __vouch.track('events', events);
      await __vouch.step(1, () => store.set('a', 1));`;
    const reply = await executor.run(
      file,
      [{ name: 'Store', from: 'module' }],
      `(async function (__vouch, Store) {\n${body}\n})`,
      5000,
    );
    assert.deepEqual(reply.effects[1][0].after, {
      t: 'array',
      items: [
        {
          t: 'array',
          items: [
            { t: 'string', v: 'set' },
            { t: 'string', v: 'a' },
            { t: 'number', v: 1 },
          ],
        },
      ],
    });
  } finally {
    executor.close();
  }
});

test("the child's jest.fn() is Jest's: same name, length, source and own properties (code may copy or print it)", () => {
  const { jestStandIn, isMockFunction } = require('../../src/generate/execution/child/mock-function');
  const { ModuleMocker } = require('jest-mock');
  const jestFn = new ModuleMocker(globalThis).fn((a, b) => a + b);
  const childFn = jestStandIn.fn((a, b) => a + b);
  assert.deepEqual(
    [childFn.name, childFn.length, String(childFn), Object.keys(childFn)],
    [jestFn.name, jestFn.length, String(jestFn), Object.keys(jestFn)],
  );
  assert.equal(childFn(1, 2), 3);
  assert.deepEqual(childFn.mock.calls, [[1, 2]]);
  assert.ok(isMockFunction(childFn) && !isMockFunction(() => {}));
});

test("the second run's clock runs fast: a maxAge of a few milliseconds between two steps shows", async () => {
  const { withClockShift } = require('../../src/generate/execution/child/clock');
  const [first, second] = await withClockShift(1000, () => [Date.now(), new Date().getTime()]);
  assert.ok(second - first >= 50, `${second - first} ms between two readings`);
  assert.ok(first - Date.now() > 900);
});

test('the second run (a moved clock) runs as another user on another machine, with real home and temporary folders', async () => {
  const source = `const os = require('os'); const fs = require('fs'); const path = require('path');
exports.where = () => {
  const file = path.join(os.tmpdir(), 'note.txt');
  fs.writeFileSync(file, 'x');
  return [process.getuid(), process.getgid(), process.pid, os.hostname(), os.homedir(), os.tmpdir(), process.env.HOME, process.env.USER, fs.statSync(file).uid, fs.readFileSync(file, 'utf8')];
};`;
  await withElsewhereExecutor(source, async ({ elsewhere, valuesOf }) => {
    const values = (shift) => valuesOf('lib.where()', shift);
    const here = await values(0);
    const there = await values(400 * 24 * 3600 * 1000);
    assert.deepEqual(here.slice(0, 2), [process.getuid(), process.getgid()]);
    for (let i = 0; i < 9; i++) assert.notEqual(there[i], here[i], `value ${i}: ${here[i]}`);
    assert.deepEqual(there.slice(4, 7), [elsewhere.home, elsewhere.tmp, elsewhere.home]);
    assert.equal(there[8], there[0], "a file the other user wrote is the other user's");
    assert.equal(there[9], 'x', 'its temporary folder is a real one');
    assert.deepEqual(await values(0), here, 'the environment is restored after the run');
  });
});

test("the second run sees the code's own source text as another run's, no prefix or suffix in common: what is derived from it is asserted by type", async () => {
  const source = `function add(a, b) { if (a > b) { return a + b; } return b + a; }
exports.add = add;
exports.source = () => [add.toString().length, String(add).includes('cov_'), Function.prototype.toString.toString(), Function.prototype.toString.call(Math.max), String(add)];`;
  await withElsewhereExecutor(source, async ({ executor, valuesOf }) => {
    const values = (shift) => valuesOf('lib.source()', shift);
    const here = await values(0);
    const there = await values(400 * 24 * 3600 * 1000);
    assert.equal(here[1], true, 'generation runs the code instrumented');
    assert.notEqual(there[0], here[0]);
    assert.equal(there[1], false);
    assert.ok(!there[4].startsWith('function'), 'no prefix in common with the instrumented text');
    assert.ok(there[4].includes('return a + b'), there[4]);
    assert.deepEqual(there.slice(2, 4), here.slice(2, 4), 'toString itself and built-ins read as before');
    assert.match(there[2], /\[native code\]/);
    assert.deepEqual(await values(0), here, 'the original is back after the run');
    const shape = await executor.load(FILE, 1000);
    assert.ok(shape.ok, 'the loader still tells the code under test by its counters');
  });
});

test("finds a folder's index.mjs as the package model does, with the same suffix list", async () => {
  const { instrumentSource } = require('../../src/generate/execution/instrument');
  const { resolveRelative } = require('../../src/generate/package/imports');
  const main = '/virtual/main.js';
  const index = '/virtual/lib/index.mjs';
  const files = [
    { path: main, code: instrumentSource(main, "exports.name = require('./lib').name;", { esm: false }).code },
    { path: index, code: instrumentSource(index, "export const name = 'lib';", { esm: true }).code },
  ];
  assert.equal(resolveRelative('./lib', 'main.js', new Set(['main.js', 'lib/index.mjs'])), 'lib/index.mjs');
  assert.equal((await stepValue(files, main, 'lib.name')).v, 'lib');
});

test("resolves a subpath import ('#styles') by the nearest package.json's imports and Node's conditions", async () => {
  const { instrumentSource } = require('../../src/generate/execution/instrument');
  const main = '/virtual/source/index.js';
  const styles = '/virtual/source/vendor/styles.js';
  const browser = '/virtual/source/vendor/browser.js';
  const manifest = {
    type: 'module',
    imports: { '#styles': { browser: './source/vendor/browser.js', node: './source/vendor/styles.js' } },
  };
  const files = [
    { path: '/virtual/package.json', json: JSON.stringify(manifest) },
    { path: main, code: instrumentSource(main, "import s from '#styles'; export const name = s;", { esm: true }).code },
    { path: styles, code: instrumentSource(styles, "export default 'node';", { esm: true }).code },
    { path: browser, code: instrumentSource(browser, "export default 'browser';", { esm: true }).code },
  ];
  assert.equal((await stepValue(files, main, 'lib.name')).v, 'node');
});

test("loading a module reports the regexes its graph holds: a required module's exported table included", async () => {
  const { instrumentSource } = require('../../src/generate/execution/instrument');
  const main = '/virtual/parse.js';
  const re = '/virtual/re.js';
  const files = [
    {
      path: main,
      code: instrumentSource(main, "const { re } = require('./re'); exports.parse = (v) => re.full.exec(v);", {
        esm: false,
      }).code,
    },
    {
      path: re,
      code: instrumentSource(re, "exports.re = { full: new RegExp('^' + '\\\\d+' + '$', 'i'), list: [/a|b/] };", {
        esm: false,
      }).code,
    },
  ];
  const executor = new Executor({ files, coveragePaths: [main, re], limits: LIMITS });
  try {
    const loaded = await executor.load(main, 5000);
    assert.equal(loaded.ok, true, JSON.stringify(loaded.error));
    assert.deepEqual(loaded.regexes, [
      { pattern: '^\\d+$', flags: 'i' },
      { pattern: 'a|b', flags: '' },
    ]);
  } finally {
    executor.close();
  }
});

test("recording an emitter's events leaves its own enumerable properties as they were", () => {
  const { recordEvents } = require('../../src/generate/execution/event-recorder');
  const methods = {
    on(name, listener) {
      (this.listeners = this.listeners || {})[name] = listener;
      return this;
    },
    emit(name, ...args) {
      if (this.listeners && this.listeners[name]) this.listeners[name](...args);
      return this;
    },
  };
  // A mixin copies the methods onto the object: `emit` is its own, enumerable property.
  const mixed = Object.assign({}, methods);
  const mixedEvents = recordEvents(mixed);
  mixed.emit('a', 1);
  assert.deepEqual(Object.keys(mixed), ['on', 'emit']);
  assert.deepEqual(mixedEvents, [['a', 1]]);
  // An instance inherits `emit`: the recorder adds no enumerable property.
  const instance = Object.create(methods);
  const instanceEvents = recordEvents(instance);
  instance.on('b', () => {}).emit('b', 2, 3);
  assert.deepEqual(Object.keys(instance), ['listeners']);
  assert.deepEqual(instanceEvents, [['b', 2, 3]]);
});

test('an error in a callback a file-system request calls counts against the scenario that made it', async () => {
  const { instrumentSource } = require('../../src/generate/execution/instrument');
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-io-'));
  const file = '/virtual/store.js';
  // A relative path: the scenario's own folder is the one its code may change (folder-guard.js).
  const source = `const fs = require('fs');
exports.save = (text, done) => { fs.writeFile('data', text, (error) => done(error)); return 'saving'; };`;
  const { code } = instrumentSource(file, source, { esm: false });
  const executor = new Executor({ files: [{ path: file, code }], coveragePaths: [file], limits: LIMITS });
  try {
    const run = (body) => executor.run(file, [{ name: 'lib', from: 'module' }], program(body), 5000);
    // `done` is no function: it throws once the write is done, after the step returned.
    const broken = await run(`await __vouch.step(0, () => lib.save('abc', 'abc'));`);
    assert.equal(broken.ok, true);
    assert.match(broken.disturbances.join('\n'), /done is not a function/);
    const fine = await run(`await __vouch.step(0, () => lib.save('abc', () => {}));`);
    assert.deepEqual(fine.disturbances, []);
  } finally {
    executor.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("run as root, the code under test cannot change the files behind its standard streams: they are the child's own pipes", async () => {
  const fs = require('node:fs');
  const source =
    "const fs = require('fs'); exports.streams = () => [0, 1, 2].map((fd) => fs.fstatSync(fd).isCharacterDevice());";
  await withExecutor(async (executor) => {
    const reply = await run(executor, 'await __vouch.step(0, () => lib.streams());');
    assert.equal(reply.ok, true, JSON.stringify(reply));
    // As another user they stay /dev/null: reading them gives EOF, as in a test run.
    const root = process.getuid() === 0;
    assert.deepEqual(
      reply.outcomes[0].value.items.map((item) => item.v),
      [!root, !root, !root],
    );
    assert.ok(fs.statSync('/dev/null').isCharacterDevice());
  }, source);
});

test("an emitter's methods are not listed for follow-up calls: they start I/O whose errors come after the test", async () => {
  const source = `const { EventEmitter } = require('events');
class Source extends EventEmitter { open() { return 1; } }
class Plain { open() { return 1; } }
exports.make = () => [new Source(), new Plain()];`;
  await withExecutor(async (executor) => {
    const reply = await run(
      executor,
      'const [a, b] = lib.make(); await __vouch.step(0, () => a); await __vouch.step(1, () => b);',
    );
    assert.equal(reply.ok, true, JSON.stringify(reply));
    assert.deepEqual(
      reply.outcomes.map((outcome) => [outcome.value.ctor, outcome.value.methods]),
      [
        ['Source', undefined],
        ['Plain', ['open']],
      ],
    );
  }, source);
});

test("a non-function handed to a faked process.nextTick disturbs its scenario: Jest's clock would throw it later, in other tests", async () => {
  const file = '/virtual/tick.js';
  const { code } = instrumentSource(
    file,
    'exports.done = (path, cb) => { if (cb) process.nextTick(cb); return path; };',
    {
      esm: false,
    },
  );
  const executor = new Executor({ files: [{ path: file, code }], coveragePaths: [file], limits: LIMITS });
  try {
    const run = (body) =>
      executor.run(file, [{ name: 'lib', from: 'module' }], program(body), 5000, { fakeTimers: true });
    const broken = await run(`await __vouch.step(0, () => lib.done('a', 1));`);
    assert.equal(broken.ok, true);
    assert.match(broken.disturbances.join('\n'), /process\.nextTick with a non-function/);
    const fine = await run(`await __vouch.step(0, () => lib.done('a', () => {}));`);
    assert.deepEqual(fine.disturbances, []);
  } finally {
    executor.close();
  }
});

test("every scenario's working folder holds the fixture the path seeds name: a text file, a JSON record, a folder's file, an empty folder", async () => {
  const { PATH_SEEDS } = require('../../src/generate/execution/folder-fixture');
  const file = '/virtual/files.js';
  const source = `const fs = require('fs');
exports.look = () => ({
  text: fs.readFileSync('file.txt', 'utf8'),
  record: JSON.parse(fs.readFileSync('data.json', 'utf8')),
  inner: fs.readFileSync('folder/a.txt', 'utf8'),
  empty: fs.readdirSync('empty'),
  missing: fs.existsSync('missing.txt'),
});`;
  const { code } = instrumentSource(file, source, { esm: false });
  const value = await stepValue([{ path: file, code }], file, 'lib.look()');
  assert.match(JSON.stringify(value), /hello\\n[^]*"key"[^]*"a"[^]*"val"[^]*a\\n/);
  assert.ok(PATH_SEEDS.includes('data.json') && PATH_SEEDS.includes('missing.txt'));
});

test("code that changes what is around its scenario's folder is refused and disturbs the scenario: removing what '..' holds leaves the package's files", async () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  // rimraf@3.0.2 called with '..' emptied the sandbox's /tmp, the generator's folders with it. The
  // second run's folder is made in the other environment's temporary folder, a private one here,
  // which also holds the (protected) package folder: '..' is that temporary folder.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-guard-test-'));
  const elsewhere = { home: path.join(root, 'home'), tmp: path.join(root, 'tmp') };
  const packageFolder = path.join(elsewhere.tmp, 'package');
  fs.mkdirSync(elsewhere.home);
  fs.mkdirSync(packageFolder, { recursive: true });
  fs.writeFileSync(path.join(packageFolder, 'index.js'), 'keep me');
  const source = `const fs = require('fs');
const path = require('path');
exports.wipe = (folder) => {
  for (const entry of fs.readdirSync(folder)) fs.rmSync(path.join(folder, entry), { recursive: true, force: true });
  return 'wiped';
};
exports.wipeLater = (folder, done) => { fs.rm(path.join(folder, 'package'), { recursive: true }, (error) => done(error && error.code)); };
exports.note = () => { fs.writeFileSync('note.txt', 'x'); fs.mkdirSync('sub'); return fs.readdirSync('.').sort(); };
exports.closeOut = () => { try { fs.closeSync(1); } catch (error) { return error.code; } return 'closed'; };
exports.writeNothing = () => process.stderr.write(undefined);
exports.chmodErr = (done) => fs.fchmod(2, 0o600, (error) => done(error && error.code));
const attempt = (fn) => { try { fn(); return 'done'; } catch (error) { return error.code; } };
exports.throughLinks = (outside) => {
  fs.symlinkSync(outside, 'way');
  fs.symlinkSync(path.join(outside, 'index.js'), 'file-link');
  return {
    removeThrough: attempt(() => fs.rmSync('way/index.js')),
    writeThrough: attempt(() => fs.writeFileSync('file-link', 'changed')),
    climbFromLink: attempt(() => fs.rmSync('way/../package', { recursive: true })),
    removeTheLinkItself: attempt(() => fs.unlinkSync('file-link')),
  };
};
`;
  const { code } = instrumentSource(FILE, source, { esm: false });
  const executor = new Executor({
    files: [{ path: FILE, code }],
    coveragePaths: [FILE],
    limits: LIMITS,
    elsewhere,
    protectedFolders: [packageFolder],
  });
  try {
    const wiped = await run(executor, "await __vouch.step(0, () => lib.wipe('..'));", 60000);
    assert.ok(fs.existsSync(path.join(packageFolder, 'index.js')), 'the package folder is left as it was');
    assert.match(wiped.disturbances.join('\n'), /rm\('\.\.\/package'\) outside the scenario's folder/);
    const later = await run(
      executor,
      [
        'const done = jest.fn();',
        "__vouch.track('done', done);",
        "await __vouch.step(0, () => lib.wipeLater('..', done));",
      ].join('\n'),
      60000,
    );
    assert.ok(fs.existsSync(path.join(packageFolder, 'index.js')));
    assert.match(later.disturbances.join('\n'), /outside the scenario's folder/);
    // A link made in its own folder does not open what it points to: paths are judged where they
    // land. Removing the link itself is the folder's own business.
    const linked = await run(
      executor,
      `await __vouch.step(0, () => lib.throughLinks(${JSON.stringify(packageFolder)}));`,
    );
    assert.equal(fs.readFileSync(path.join(packageFolder, 'index.js'), 'utf8'), 'keep me');
    assert.deepEqual(
      Object.fromEntries(linked.outcomes[0].value.entries.map(([key, described]) => [key, described.v])),
      { removeThrough: 'EACCES', writeThrough: 'EACCES', climbFromLink: 'EACCES', removeTheLinkItself: 'done' },
    );
    assert.equal(linked.disturbances.length, 3);
    // Nor may it close a standard stream: a test doing so closes the pipe a run answers on.
    const closed = await run(executor, 'await __vouch.step(0, () => lib.closeOut());');
    assert.match(closed.disturbances.join('\n'), /close\(1\), a standard stream/);
    // Nor hand a standard stream what Node refuses: Jest's reporters accept it when they run several
    // test files in one process, so the outcome depends on how the suite runs (stdio-guard.js).
    const refusedWrite = await run(executor, 'await __vouch.step(0, () => lib.writeNothing());');
    assert.equal(refusedWrite.outcomes[0].kind, 'throw');
    assert.deepEqual(refusedWrite.outcomes[0].value.props, [['code', { t: 'string', v: 'ERR_INVALID_ARG_TYPE' }]]);
    assert.match(refusedWrite.disturbances.join('\n'), /process\.stderr\.write\(undefined\)/);
    // Nor change the file behind one (the pipe's mode is part of what run.js checks it by).
    const changed = await run(
      executor,
      [
        'const done = jest.fn();',
        "__vouch.track('done', done);",
        'await __vouch.step(0, () => lib.chmodErr(done));',
      ].join('\n'),
    );
    assert.match(changed.disturbances.join('\n'), /fchmod\(2\), a standard stream/);
    // What the code writes in its own folder is its own.
    const noted = await run(executor, 'await __vouch.step(0, () => lib.note());');
    assert.deepEqual(noted.disturbances, []);
    assert.deepEqual(
      noted.outcomes[0].value.items.map((item) => item.v),
      ['data.json', 'empty', 'file.txt', 'folder', 'note.txt', 'sub'],
    );
  } finally {
    executor.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test("waits for a file-system callback as long as the request runs: a busy machine's late read is recorded", async () => {
  // Four key derivations fill libuv's thread pool (four threads), so the stat waits about 300 ms
  // for a thread: longer than callbackMs, which alone would give up on the callback.
  const started = process.hrtime.bigint();
  require('node:crypto').pbkdf2Sync('x', 'y', 20000, 32, 'sha256');
  const msPer20k = Number(process.hrtime.bigint() - started) / 1e6;
  const iterations = Math.max(20000, Math.round((20000 * 300) / msPer20k));
  const source = `exports.statLate = (fn) => {
  const crypto = require('crypto');
  for (let i = 0; i < 4; i++) crypto.pbkdf2('x', 'y', ${iterations}, 32, 'sha256', () => {});
  require('fs').stat('.', (error, stats) => fn(error, stats.isDirectory()));
};
`;
  await withExecutor(
    async (executor) => {
      const reply = await runWithMock(executor, 'done', '', 'statLate');
      assert.deepEqual(reply.outcomes[0], { kind: 'return', value: { t: 'undefined' }, calledBack: [0] });
      assert.deepEqual(reply.effects[0][0].mocks[0].calls.items[0].items[1], { t: 'boolean', v: true });
    },
    source,
    { limits: { ...LIMITS, asyncMs: 5000 } },
  );
});

test("a path in the scenario's folder is written as process.cwd() and the rest, so the test's folder matches", async () => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const vm = require('node:vm');
  const { valueSource } = require('../../src/generate/writing/value-source');
  const source = `
    const fs = require('fs');
    const path = require('path');
    exports.where = (name) => path.resolve(name);
    exports.make = (name) => { const where = path.resolve(name); fs.mkdirSync(where); fs.mkdirSync(where); };
  `;
  await withExecutor(async (executor) => {
    const returned = await run(executor, "await __vouch.step(0, () => lib.where('abc'));");
    const [outcome] = returned.outcomes;
    assert.deepEqual(outcome.value, { t: 'string', v: './abc', folderParts: ['', '/abc'] });
    const thrown = await run(executor, "await __vouch.step(0, () => lib.make('made'));");
    const error = thrown.outcomes[0].value;
    assert.equal(error.message, "EEXIST: file already exists, mkdir './made'");
    assert.deepEqual(error.props.find(([key]) => key === 'path')[1].folderParts, ['', '/made']);

    // Where the test runs, in a folder of its own, the written value is that folder's.
    const elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-cwd-test-')));
    const previous = process.cwd();
    try {
      process.chdir(elsewhere);
      assert.equal(vm.runInThisContext(valueSource(outcome.value)), path.join(elsewhere, 'abc'));
      const message = vm.runInThisContext(
        valueSource({ t: 'string', v: error.message, folderParts: error.messageFolderParts }),
      );
      assert.equal(message, `EEXIST: file already exists, mkdir '${path.join(elsewhere, 'made')}'`);
    } finally {
      process.chdir(previous);
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  }, source);
});

test('a re-exported function is searched once, where it is defined: its identity is the same through the index', async () => {
  const { instrumentSource } = require('../../src/generate/execution/instrument');
  const { dropReexports } = require('../../src/generate/pipeline');
  const sources = {
    '/virtual/index.js': "module.exports = { add: require('./add'), sub: require('./sub'), twice: (n) => n * 2 };",
    '/virtual/add.js': 'module.exports = (a, b) => a + b;',
    '/virtual/sub.js': 'module.exports = function sub(a, b) { return a - b; };',
  };
  const files = Object.entries(sources).map(([path, source]) => ({
    path,
    code: instrumentSource(path, source, { esm: false }).code,
  }));
  const counterOf = (path) => /\bfunction (cov_\w+)\(\)/.exec(files.find((file) => file.path === path).code)[1];
  const executor = new Executor({ files, coveragePaths: Object.keys(sources), limits: LIMITS });
  try {
    const index = await executor.load('/virtual/index.js', 5000);
    const add = await executor.load('/virtual/add.js', 5000);
    assert.equal(index.shape.members.add.identity, add.shape.identity);
    assert.ok(add.shape.identity.startsWith(`${counterOf('/virtual/add.js')}#`));
    assert.ok(index.shape.members.twice.identity.startsWith(`${counterOf('/virtual/index.js')}#`));
    const sub = await executor.load('/virtual/sub.js', 5000);
    const target = (label, shape) => ({ label, identity: shape.identity });
    const modules = [
      {
        file: { counter: counterOf('/virtual/index.js') },
        targets: [
          target('index.add', index.shape.members.add),
          target('index.sub', index.shape.members.sub),
          target('index.twice', index.shape.members.twice),
        ],
      },
      { file: { counter: counterOf('/virtual/add.js') }, targets: [target('add', add.shape)] },
      { file: { counter: counterOf('/virtual/sub.js') }, targets: [target('sub', sub.shape)] },
    ];
    assert.equal(dropReexports(modules), 2);
    assert.deepEqual(
      modules.map((module) => module.exportNames),
      [['index.twice'], ['add'], ['sub']],
    );
    // An index that only re-exports keeps its first target, so that a test still loads it.
    modules[0].targets = modules[0].targets.filter((t) => t.label !== 'index.twice');
    modules[0].targets.unshift(
      target('index.add', index.shape.members.add),
      target('index.sub', index.shape.members.sub),
    );
    assert.equal(dropReexports(modules), 1);
    assert.deepEqual(modules[0].exportNames, ['index.add']);
  } finally {
    executor.close();
  }
});

test('each scenario starts from the environment variables the child started with', async () => {
  // As debug's enable(namespaces) does: a value saved in process.env and read back at load.
  const source = `
    const saved = process.env.VOUCH_TEST_SAVED;
    if (saved !== undefined && saved !== 'a') throw new Error('loaded with ' + saved);
    exports.save = (value) => { process.env.VOUCH_TEST_SAVED = String(value); };
    exports.saved = () => saved;
  `;
  await withExecutor(async (executor) => {
    assert.equal((await run(executor, 'await __vouch.step(0, () => lib.save({}));')).ok, true);
    const after = await run(executor, 'await __vouch.step(0, () => lib.saved());');
    assert.equal(after.ok, true, after.error);
    assert.deepEqual(after.outcomes[0].value, { t: 'undefined' });
    assert.equal(process.env.VOUCH_TEST_SAVED, undefined);
  }, source);
});

test('a returned function is described with its switches: an accessor it can be set through, a boolean', async () => {
  const source = `
    exports.make = () => {
      let on = false;
      function log() { return on ? 'logged' : undefined; }
      Object.defineProperty(log, 'enabled', { get: () => on, set: (v) => { on = v; } });
      log.quiet = false;
      log.label = 'x';
      return log;
    };
  `;
  await withExecutor(async (executor) => {
    const reply = await run(executor, 'await __vouch.step(0, () => lib.make());');
    assert.equal(reply.ok, true);
    assert.deepEqual(reply.outcomes[0].value.members, [
      { name: 'enabled', kind: 'getter', settable: true },
      { name: 'quiet', kind: 'switch', value: false },
    ]);
  }, source);
});

test("each scenario starts from the process's settings the child started with: a switch, stderr's isTTY, listeners", async () => {
  const source = `exports.switches = () => [process.noDeprecation, process.stderr.isTTY, process.listenerCount('x')];`;
  const values = (reply) => reply.outcomes[0].value.items.map((item) => item.t);
  await withExecutor(async (executor) => {
    const before = await run(executor, 'await __vouch.step(0, () => lib.switches());');
    assert.equal(before.ok, true, before.error);
    const flipped = await run(
      executor,
      "process.noDeprecation = true; process.stderr.isTTY = true; process.on('x', () => {});\n" +
        'await __vouch.step(0, () => lib.switches());',
    );
    assert.deepEqual(values(flipped), ['boolean', 'boolean', 'number']);
    const after = await run(executor, 'await __vouch.step(0, () => lib.switches());');
    assert.deepEqual(values(after), values(before));
    assert.equal(after.outcomes[0].value.items[2].v, 0, 'the listener is gone');
  }, source);
});

test('the second run names its program another file, lines further down: a text derived from the call site differs', async () => {
  // As depd's default message does: where the deprecated function was called from.
  const source = `exports.site = () => {
    const holder = {};
    Error.captureStackTrace(holder, exports.site);
    return holder.stack.split('\\n')[1].trim();
  };`;
  await withExecutor(async (executor) => {
    const body = 'await __vouch.step(0, () => lib.site());';
    const first = await run(executor, body);
    const second = await run(executor, body, 1000);
    assert.match(first.outcomes[0].value.v, /vouch-scenario\.js:/);
    assert.notEqual(second.outcomes[0].value.v, first.outcomes[0].value.v);
  }, source);
});
