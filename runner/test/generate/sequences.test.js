'use strict';
// Seeds that use the whole class: members that put state in are called before those that read
// it or take it away, on one instance, with the first writer's key passed again.

const test = require('node:test');
const assert = require('node:assert/strict');
const { ScenarioFactory } = require('../../src/generate/search/scenario-factory');
const { InputPool } = require('../../src/generate/search/input-pool');
const { Hint } = require('../../src/generate/analysis/hint');
const { Rng } = require('../../src/generate/search/rng');

const pool = new InputPool(
  { strings: [], regexStrings: [], numbers: [], bigints: [] },
  { ofType: () => [] },
  new Rng(2),
);

function hint(type) {
  const made = new Hint();
  if (type) made.addType(type);
  return made;
}

const param = (name, type) => ({ name, hint: hint(type), rest: false, hasDefault: false });
const member = (name, kind, params = []) => ({ name, kind, static: false, params });

function classTarget(name, members) {
  return { id: `lib.js#${name}`, file: 'lib.js', kind: 'class', callee: `lib.${name}`, params: [], members };
}

// A function of `file` taking no parameters, whose returned object's methods take methodParams(name).
function factoryTarget(file, name, methodParams) {
  return { id: `${file}#${name}`, file, kind: 'function', callee: name, params: [], members: [], methodParams };
}

// Each seed as `name(args)` per step, construction left out.
function seedCalls(target) {
  return [...new ScenarioFactory(target, pool, new Rng(1)).seeds()].map((scenario) =>
    scenario.steps
      .slice(1)
      .map((step) =>
        step.op === 'get' ? step.name : `${step.name}(${(step.args || []).map((arg) => arg.source).join(', ')})`,
      )
      .join(' '),
  );
}

test('a stack is pushed before it is popped, and popped after a push alone', () => {
  const seeds = seedCalls(
    classTarget('Stack', [
      member('push', 'method', [param('item', 'string')]),
      member('pop', 'method'),
      member('size', 'getter'),
    ]),
  );
  assert.ok(seeds.includes("push('abc') pop() size"), seeds.join('\n'));
  assert.ok(seeds.includes("push('abc') pop()"), seeds.join('\n'));
  assert.ok(
    seeds.indexOf("push('abc') pop() size") < seeds.indexOf('pop()'),
    'the whole-class sequence comes before single members',
  );
});

test('a store is set before it is read and deleted, with the same key; a file is opened before it is written and closed', () => {
  const store = seedCalls(
    classTarget('Store', [
      member('delete', 'method', [param('key', 'string')]),
      member('get', 'method', [param('key', 'string')]),
      member('set', 'method', [param('key', 'string'), param('value', 'number')]),
    ]),
  );
  assert.ok(store.includes("set('abc', 3) get('abc') delete('abc')"), store.join('\n'));
  assert.ok(store.includes("set('abc', 3) delete('abc')"), store.join('\n'));
  const file = seedCalls(
    classTarget('Journal', [
      member('open', 'method', [param('name', 'string')]),
      member('write', 'method', [param('text', 'string')]),
      member('close', 'method'),
      member('isOpen', 'getter'),
    ]),
  );
  assert.ok(file.includes("open('abc') write('abc') close() isOpen"), file.join('\n'));
});

test('a class with a single member or nothing to write gets no sequence seeds', () => {
  const counter = seedCalls(classTarget('Counter', [member('value', 'method'), member('total', 'getter')]));
  assert.deepEqual([...new Set(counter)], ['', 'value()', 'total'], 'the construction alone, then each member alone');
  const box = classTarget('Box', [member('put', 'method', [param('item', 'string')])]);
  const lengths = [...new ScenarioFactory(box, pool, new Rng(1)).seeds()].map((scenario) => scenario.steps.length);
  assert.deepEqual([...new Set(lengths)], [1, 2], 'the construction alone, then with one put()');
});

test('an emitter is listened to, emitted on and unlistened with the same name and the same listener', () => {
  const { renderScenario } = require('../../src/generate/search/scenario');
  const target = classTarget('Emitter', [
    member('on', 'method', [param('name', 'string'), param('callback', 'function')]),
    member('emit', 'method', [param('name', 'string')]),
    member('off', 'method', [param('name', 'string'), param('callback', 'function')]),
  ]);
  const seeds = [...new ScenarioFactory(target, pool, new Rng(1)).seeds()];
  const whole = seeds.find(
    (scenario) =>
      scenario.steps
        .slice(1)
        .map((step) => step.name)
        .join(' ') === 'on emit off',
  );
  assert.ok(whole, 'a sequence of on, emit, off');
  const [, on, emit, off] = whole.steps;
  assert.equal(off.args[1], on.args[1], 'the same listener object');
  assert.equal(emit.args[0], on.args[0]);
  const rendered = renderScenario(whole, new Set(['lib']));
  assert.deepEqual(
    rendered.steps.slice(1).map((step) => step.expression),
    ["emitter.on('abc', callback)", "emitter.emit('abc')", "emitter.off('abc', callback)"],
  );
  assert.equal(rendered.declarations.length, 1, 'the listener is declared once');
});

test('an object a factory returns is used whole too, its events recorded when it emits: on, emit, off with one handler', () => {
  const target = factoryTarget(
    'bus.js',
    'createBus',
    (name) =>
      ({
        on: [param('type', 'string'), param('handler')],
        emit: [param('type', 'string'), param('event')],
        off: [param('type', 'string'), param('handler')],
      })[name],
  );
  const factory = new ScenarioFactory(target, pool, new Rng(1));
  const scenario = { targetId: target.id, steps: [{ op: 'call', callee: 'createBus', args: [], params: [] }] };
  const returned = {
    kind: 'return',
    value: { t: 'object', ctor: null, entries: ['on', 'emit', 'off'].map((name) => [name, { t: 'function' }]) },
  };
  const [whole] = factory.extend(scenario, [returned]);
  assert.equal(whole.steps[0].recordEvents, true);
  assert.deepEqual(
    whole.steps.slice(1).map((step) => step.name),
    ['on', 'emit', 'off'],
  );
  const [, on, emit, off] = whole.steps;
  assert.equal(on.args[1].kind, 'mock', 'a handler is a function');
  assert.equal(off.args[1], on.args[1]);
  assert.equal(emit.args[0], on.args[0]);
});

test("a returned function's own methods get the parameters of the functions the module attaches to it", () => {
  const { analyzeSource } = require('../../src/generate/analysis/analyze');
  const { buildTargets } = require('../../src/generate/analysis/targets');
  const analysis = analyzeSource(`
    function wrapfunction(fn, message) {
      if (typeof fn !== 'function') throw new TypeError('argument fn must be a function');
      return function () { return fn.apply(this, arguments); };
    }
    function depd(namespace) {
      function deprecate(message) {}
      deprecate.function = wrapfunction;
      return deprecate;
    }
    module.exports = depd;
  `);
  const shape = { kind: 'function', fnName: 'depd', length: 1, own: true, statics: {} };
  const [target] = buildTargets({ path: 'depd.js' }, analysis, [{ name: 'depd', from: 'module', shape }]);
  assert.deepEqual(
    target.methodParams('function').map((p) => p.name),
    ['fn', 'message'],
  );
  const factory = new ScenarioFactory(target, pool, new Rng(1));
  const scenario = { targetId: target.id, steps: [{ op: 'call', callee: 'depd', args: [], params: [] }] };
  const returned = {
    kind: 'return',
    value: { t: 'function', members: [{ kind: 'method', name: 'function' }] },
  };
  const calls = factory
    .extend(scenario, [returned])
    .map((extended) => extended.steps[1])
    .filter((step) => step.op === 'method');
  assert.deepEqual(
    calls.map((step) => step.args.map((arg) => arg.kind)),
    [['mock', 'atom'], []],
    'called with a function first, then with no arguments',
  );
});

test('a returned function is switched on before it is called: each switch alone, then all together', () => {
  const target = factoryTarget('lib.js', 'createDebug', () => null);
  const factory = new ScenarioFactory(target, pool, new Rng(1));
  const scenario = { targetId: target.id, steps: [{ op: 'call', callee: 'createDebug', args: [], params: [] }] };
  const members = [
    { name: 'enabled', kind: 'getter', settable: true },
    { name: 'size', kind: 'getter' },
    { name: 'useColors', kind: 'switch', value: false },
  ];
  const switched = factory
    .extend(scenario, [{ kind: 'return', value: { t: 'function', members } }])
    .filter((extended) => extended.steps.some((step) => step.op === 'set'));
  // An accessor is set to true (reading it would run code), a boolean to what it does not hold.
  const sets = (extended) =>
    extended.steps
      .slice(1)
      .map((step) => (step.op === 'set' ? `${step.name} = ${step.args[0].value}` : step.op))
      .join('; ');
  assert.deepEqual(switched.map(sets), [
    'enabled = true; invoke',
    'enabled = true; invoke',
    'useColors = true; invoke',
    'useColors = true; invoke',
    'enabled = true; useColors = true; invoke',
    'enabled = true; useColors = true; invoke',
  ]);
  assert.equal(switched[0].steps[2].args.length, 1, 'the first call passes a seed');
  switched.forEach((extended) => assert.equal(extended.steps[1].receiver, extended.steps[0].bind));
});

test("a returned class instance is used through its prototype's methods, every one across extensions", () => {
  const target = factoryTarget('lib.js', 'size', () => null);
  const factory = new ScenarioFactory(target, pool, new Rng(3));
  const scenario = { targetId: target.id, steps: [{ op: 'call', callee: 'size', args: [], params: [] }] };
  const names = ['mask', 'assert', 'create', 'is', 'validate', 'refine'];
  const returned = { kind: 'return', value: { t: 'object', ctor: 'Struct', entries: [], methods: names } };
  const called = new Set();
  for (let i = 0; i < 20; i++)
    for (const extended of factory.extend(scenario, [returned]))
      extended.steps.slice(1).forEach((step) => called.add(step.name));
  assert.deepEqual([...called].sort(), [...names].sort());
});

test("a held instance's methods are called again after a step that returned nothing, every one across extensions", () => {
  const target = factoryTarget('lib.js', 'ui', () => null);
  const factory = new ScenarioFactory(target, pool, new Rng(3));
  // More methods than one extension holds: the tenth (`rowToString`) must be called too.
  const names = ['span', 'reset', 'div', 'layout', 'apply', 'column', 'measure', 'toString', 'rowToString', 'inline'];
  const scenario = {
    targetId: target.id,
    steps: [
      { op: 'call', callee: 'ui', args: [], params: [], bind: 'ui' },
      { op: 'method', receiver: 'ui', name: 'reset', args: [], params: [] },
    ],
  };
  const outcomes = [
    { kind: 'return', value: { t: 'object', ctor: 'UI', entries: [], methods: names } },
    { kind: 'return', value: { t: 'undefined' } },
  ];
  const called = new Set();
  for (let i = 0; i < 20; i++)
    for (const extended of factory.extend(scenario, outcomes)) called.add(extended.steps[2].name);
  assert.deepEqual([...called].sort(), [...names].sort());
});

test('a kept scenario is tried again after each switch was flipped, a switch read only by what a returned function does', () => {
  const target = {
    ...factoryTarget('lib.js', 'depd', () => null),
    flags: [
      { callee: 'process.noDeprecation', value: false },
      { callee: 'process.stderr.isTTY', value: false },
      { callee: 'process.env.NO_DEPRECATION', value: undefined, values: ['*', '1'] },
      { callee: 'process', event: 'deprecation' },
    ],
  };
  const factory = new ScenarioFactory(target, pool, new Rng(1));
  const steps = [
    { op: 'call', callee: 'depd', args: [], params: [], bind: 'fn' },
    { op: 'invoke', receiver: 'fn', args: [], params: [] },
  ];
  const outcomes = [
    { kind: 'return', value: { t: 'function', members: [] } },
    { kind: 'return', value: { t: 'undefined' } },
  ];
  const switched = factory
    .extend({ targetId: target.id, steps }, outcomes)
    .filter((extended) => ['assign', 'listen'].includes(extended.steps[0].op));
  const { renderScenario } = require('../../src/generate/search/scenario');
  assert.deepEqual(
    switched.map((extended) => renderScenario(extended, ['depd']).steps[0].expression),
    [
      'process.noDeprecation = true',
      'process.stderr.isTTY = true',
      "process.env.NO_DEPRECATION = '*'",
      "process.env.NO_DEPRECATION = '1'",
      "process.on('deprecation', listener)",
    ],
  );
  assert.equal(switched[4].steps[0].args[0].kind, 'mock', 'the listener is a mock: its calls are asserted');
  switched.forEach((extended) => assert.deepEqual(extended.steps.slice(1), steps));
  const again = factory.extend(switched[0], [{ kind: 'return', value: { t: 'undefined' } }, ...outcomes]);
  assert.ok(!again.some((extended) => extended.steps[1].op === 'assign'), 'one switch step at most');
});

test('data tables hanging off an export are targets of their own, read and asserted whole', () => {
  const { analyzeSource } = require('../../src/generate/analysis/analyze');
  const { buildTargets } = require('../../src/generate/analysis/targets');
  const { readExportsShape } = require('../../src/generate/execution/child/shape');
  const source = `
    function status(code) { return status.message[code]; }
    status.message = { 200: 'OK', 404: 'Not Found' };
    status.redirect = { 301: true, 302: true };
    status.codes = [200, 404];
    status.version = '2';
    module.exports = status;
  `;
  // What the module exports at run time (the shape is read from the loaded value).
  const status = (code) => status.message[code];
  Object.assign(status, {
    message: { 200: 'OK', 404: 'Not Found' },
    redirect: { 301: true, 302: true },
    codes: [200, 404],
    version: '2',
  });
  const { shape } = readExportsShape(status);
  assert.deepEqual(shape.data, ['message', 'redirect', 'codes']);
  const targets = buildTargets({ path: 'status.js' }, analyzeSource(source), [
    { name: 'status', from: 'module', shape },
  ]);
  assert.deepEqual(
    targets.map((target) => [target.kind, target.callee]),
    [
      ['value', 'status.message'],
      ['value', 'status.redirect'],
      ['value', 'status.codes'],
      ['function', 'status'],
    ],
  );
  const [read] = [...new ScenarioFactory(targets[1], pool, new Rng(1)).seeds()];
  assert.deepEqual(read.steps, [{ op: 'read', callee: 'status.redirect' }]);
});

test("a parameter whose methods are called gets the module's own made values first: size(string(), 1)", () => {
  const { makerCalls } = require('../../src/generate/search/scenario-factory');
  const struct = new Hint();
  struct.prop('refiner').addType('function');
  struct.prop('type');
  const options = new Hint();
  options.prop('exclusive').addType('boolean');
  const fn = (name, params) => ({
    id: `lib.js#${name}`,
    file: 'lib.js',
    kind: 'function',
    callee: `lib.${name}`,
    params,
    members: [],
  });
  const size = fn('size', [
    { name: 'struct', hint: struct, rest: false, hasDefault: false },
    { name: 'min', hint: hint('number'), rest: false, hasDefault: false },
  ]);
  const max = fn('max', [{ name: 'options', hint: options, rest: false, hasDefault: false }]);
  const makers = makerCalls([size, fn('string', []), max, fn('any', [])]);
  assert.deepEqual(makers, ['lib.string', 'lib.any']);
  const [first] = new ScenarioFactory(size, pool, new Rng(1), makers).seeds();
  assert.deepEqual(
    first.steps[0].args.map((arg) => arg.source),
    ['lib.string()', '3'],
  );
  // A plain options bag keeps its object seeds.
  const [plain] = new ScenarioFactory(max, pool, new Rng(1), makers).seeds();
  assert.equal(plain.steps[0].args[0].kind, 'object');
});

test("the constructor's sweeps, the sequences and each member's seeds take turns", () => {
  const target = {
    ...classTarget('Version', [
      member('compare', 'method', [param('other', 'string')]),
      member('format', 'method'),
      member('toString', 'method'),
      member('inc', 'method', [param('release', 'string')]),
    ]),
    params: [param('version', 'string'), param('options', 'object')],
  };
  const seeds = seedCalls(target);
  // Dozens of constructions (each seed of `version` and of `options`) no longer come first: the
  // last member's first call is among the first few seeds.
  const firstInc = seeds.findIndex((calls) => calls.startsWith('inc('));
  assert.ok(firstInc >= 0 && firstInc < 10, seeds.slice(0, 12).join('\n'));
  assert.ok(seeds.filter((calls) => calls === '').length > 10, 'every construction is still a seed');
});

test("a function returned for a text is called with that text, and with data keyed by the text's words", () => {
  const target = factoryTarget('lib.js', 'compile', () => null);
  const factory = new ScenarioFactory(target, pool, new Rng(1));
  const text = { kind: 'atom', type: 'string', value: '/:id/:page*', source: "'/:id/:page*'" };
  const scenario = {
    targetId: target.id,
    steps: [{ op: 'call', callee: 'compile', args: [text], params: [param('pattern', 'string')] }],
  };
  const calls = factory
    .extend(scenario, [{ kind: 'return', value: { t: 'function', members: [] } }])
    .map((extended) => extended.steps[extended.steps.length - 1])
    .filter((step) => step.op === 'invoke');
  const shown = (arg) =>
    arg.kind === 'object'
      ? Object.fromEntries(arg.entries.map(([key, value]) => [key, shown(value)]))
      : arg.kind === 'array'
        ? arg.items.map(shown)
        : arg.value;
  const argumentLists = calls.map((step) => step.args.map(shown));
  assert.deepEqual(argumentLists[1], ['/:id/:page*'], 'the text itself');
  assert.deepEqual(argumentLists[2], [{ id: 'id', page: 'page' }]);
  assert.deepEqual(argumentLists[3], [{ id: ['id', 'id'], page: ['page', 'page'] }]);
  // A string drawn for a callback is no text the function was made from.
  const drawn = { ...scenario, steps: [{ ...scenario.steps[0], params: [param('callback', 'function')] }] };
  assert.deepEqual(factory.roundTrips(drawn, [{ kind: 'return', value: { t: 'function', members: [] } }]), []);
});
