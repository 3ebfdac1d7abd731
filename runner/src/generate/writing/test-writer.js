'use strict';
// Writes Jest test files. Each kept scenario becomes one test inside the `describe` block of the
// export it exercises; each test states what was observed when the scenario ran. A test file
// reaches the module by a relative require (or import, for ES modules), so the tests run in any
// folder that holds the sources and the tests side by side.

const { toSource } = require('../search/candidate');
const { renderScenario, NameScope } = require('../search/scenario');
const { stepAssertions } = require('./assertions');
const { effectAssertions, untouchedDeclarations } = require('./effect-assertions');
const { testName } = require('./test-names');
const { quoteString } = require('./js-source');
const { recordEvents } = require('../execution/event-recorder');
const { settleOrder } = require('../execution/settle-order');
const { FIXTURE } = require('../execution/folder-fixture');

const INDENT = '    ';

// The statements that write the folder fixture (execution/folder-fixture.js) into the working
// folder.
function fixtureLines() {
  return FIXTURE.flatMap(({ path, content }) => {
    const folder = path.endsWith('/') ? path.slice(0, -1) : path.includes('/') && path.slice(0, path.lastIndexOf('/'));
    return [
      ...(folder ? [`  require('fs').mkdirSync(${quoteString(folder)}, { recursive: true });`] : []),
      ...(path.endsWith('/') ? [] : [`  require('fs').writeFileSync(${quoteString(path)}, ${quoteString(content)});`]),
    ];
  });
}

// For code that reaches the file system (spec.freshFolder): each test runs in a temporary folder
// of its own holding the same few files, as each scenario ran (execution/child/fresh-folder.js).
// As a scenario's, a test's file-system requests (a stream opening its file on the next tick)
// complete before it leaves its folder.
const FRESH_FOLDER = [
  '// The code uses the file system: each test runs in a temporary folder of its own, where the',
  "// relative paths it writes land, never in the package's folder, and which holds a few files",
  '// and folders for the paths it reads.',
  'const packageFolder = process.cwd();',
  'const testFolders = [];',
  '// The real clock, also when the tests fake timers.',
  'const realSetTimeout = setTimeout;',
  'const fileSystemBusy = () =>',
  "  (process.getActiveResourcesInfo?.() ?? []).some((name) => name.startsWith('FS') || name.startsWith('FileHandle'));",
  'beforeEach(() => {',
  "  testFolders.push(require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 'test-')));",
  '  process.chdir(testFolders[testFolders.length - 1]);',
  ...fixtureLines(),
  '});',
  '// What the test started on the file system (a stream opening its file on the next tick) ends',
  '// in its folder, as it did when Vouch ran it, for up to about 200 ms.',
  'afterEach(async () => {',
  '  let waited = 0;',
  '  do await new Promise((resolve) => realSetTimeout(resolve, 1));',
  '  while (fileSystemBusy() && ++waited < 200);',
  '  process.chdir(packageFolder);',
  '});',
  "afterAll(() => testFolders.forEach((folder) => require('fs').rmSync(folder, { recursive: true, force: true })));",
];

const HELPERS = {
  calledBack: [
    '// Resolves once a mock function has been called: the code calls back asynchronously.',
    'function calledBack(mock) {',
    '  return new Promise((resolve) => {',
    '    const check = () => (mock.mock.calls.length ? resolve() : setTimeout(check, 1));',
    '    check();',
    '  });',
    '}',
  ],
  take: [
    '// The first `count` values an iterator yields.',
    'function take(iterator, count) {',
    '  const values = [];',
    '  for (const value of iterator) {',
    '    if (values.length === count) break;',
    '    values.push(value);',
    '  }',
    '  return values;',
    '}',
  ],
  collect: [
    '// The values an async iterator yields (all of them, or the first `count`).',
    'async function collect(iterator, count = Infinity) {',
    '  const values = [];',
    '  for await (const value of iterator) {',
    '    if (values.length === count) break;',
    '    values.push(value);',
    '  }',
    '  return values;',
    '}',
  ],
  recordEvents: [
    '// Records every event the emitter emits from now on, as [name, ...args].',
    ...recordEvents.toString().split('\n'),
  ],
  settleOrder: [
    '// Resolves once every promise has settled, to how each did in the order they did:',
    "// [index, 'resolved', value] or [index, 'rejected', message].",
    ...settleOrder.toString().split('\n'),
  ],
};

// Paths for the test of `a/b.js`: `a/__tests__/b.test.js`, which requires '../b'. `testExtension`
// is `.test.cjs` where the folder's package.json makes `.js` files ES modules.
function testFileFor(sourcePath, takenPaths, testExtension = '.test.js') {
  const slash = sourcePath.lastIndexOf('/');
  const dir = slash >= 0 ? sourcePath.slice(0, slash + 1) : '';
  const fileName = sourcePath.slice(slash + 1);
  const dot = fileName.lastIndexOf('.');
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
  const extension = dot > 0 ? fileName.slice(dot) : '';
  let testPath = `${dir}__tests__/${stem}${testExtension}`;
  const collides = takenPaths.has(testPath);
  if (collides) testPath = `${dir}__tests__/${stem}${extension.replace('.', '-')}${testExtension}`;
  // `../b` for b.js and b.ts (as TypeScript imports name them), unless another file shares the
  // stem; other extensions stay.
  const request = `../${['.js', '.ts', '.tsx'].includes(extension) && !collides ? stem : fileName}`;
  return { testPath, request };
}

// The request by which the test file at `testPath` reaches the package file `path` (both relative
// to the job folder), extension kept: `../../internal.ts`.
function requestFrom(testPath, path) {
  const from = testPath.split('/').slice(0, -1);
  const to = path.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  return `${up ? '../'.repeat(up) : './'}${to.slice(common).join('/')}`;
}

// One test case ready to print: { describe, name, lines, async, helpers }.
function prepareTestCase(entry, bindingNames, classRefs) {
  // `result` is left for assertions to claim (see assertions.js).
  const taken = [...bindingNames, 'result'];
  const original = renderScenario(entry.scenario, taken);
  // Inputs the call neither changed nor called back through read better inline.
  const untouched = untouchedDeclarations(entry.effects);
  const inline = new Set(
    original.tracked
      .filter((tracked, index) => tracked.kind === 'input' && untouched.has(index))
      .map((t) => `${t.step}:${t.arg}`),
  );
  const rendered = renderScenario(entry.scenario, taken, inline);
  // What the test calls each value the scenario tracked, in tracking order (null: written inline).
  const trackedNames = original.tracked.map((tracked) => {
    const same = rendered.tracked.find(
      (other) => other.kind === tracked.kind && other.step === tracked.step && other.arg === tracked.arg,
    );
    return same ? { kind: same.kind, name: same.name } : null;
  });
  const inputNames = trackedNames.map((tracked) => (tracked && tracked.kind === 'input' ? tracked.name : null));

  const names = new NameScope([...bindingNames, ...rendered.tracked.map((t) => t.name)]);
  const lines = [];
  const helpers = new Set();
  let isAsync = false;
  rendered.steps.forEach((step, index) => {
    for (const declaration of rendered.declarations.filter((d) => d.step === index)) {
      lines.push(`const ${declaration.name} = ${toSource(declaration.candidate, INDENT)};`);
    }
    const outcome = entry.outcomes[index];
    const isLast = index === rendered.steps.length - 1;
    const assertion = stepAssertions(step, outcome, classRefs, isLast, names, inputNames);
    lines.push(...assertion.lines);
    assertion.helpers.forEach((helper) => helpers.add(helper));
    if (step.op === 'settle') helpers.add('settleOrder');
    isAsync = isAsync || assertion.async;
    if (step.records && !isLast && outcome.kind !== 'throw' && outcome.kind !== 'reject') {
      lines.push(`const ${step.records} = recordEvents(${step.bind});`);
      helpers.add('recordEvents');
    }
    lines.push(...effectAssertions(entry.effects, index, trackedNames, entry.outcomes));
  });
  return {
    describe: entry.target.label,
    name: testName(entry.scenario, entry.outcomes),
    lines,
    async: isAsync,
    helpers,
  };
}

// Makes test names unique within their describe block (Jest reports results by name).
function uniqueNames(cases) {
  const seen = new Map();
  for (const testCase of cases) {
    const key = `${testCase.describe}\0${testCase.name}`;
    const count = (seen.get(key) || 0) + 1;
    seen.set(key, count);
    if (count > 1) testCase.name = `${testCase.name} (${count})`;
  }
  return cases;
}

function usedBindings(spec, body) {
  return spec.bindings.filter((binding) => new RegExp(`\\b${binding.name.replace(/\$/g, '\\$')}\\b`).test(body));
}

// A module that keeps state between calls gets a fresh copy for every test, as each scenario had.
function isolatedLoadLines(spec, used) {
  const request = quoteString(spec.request);
  const load =
    spec.esm && used[0].from !== 'module'
      ? `({ ${used.map((binding) => (binding.from === 'default' ? `default: ${binding.name}` : binding.key === binding.name ? binding.name : `${binding.key}: ${binding.name}`)).join(', ')} } = require(${request}));`
      : `${used[0].name} = require(${request});`;
  return [
    ...used.map((binding) => `let ${binding.name};`),
    '',
    '// The module keeps state between calls: every test starts from a freshly loaded copy.',
    'beforeEach(() => {',
    '  jest.resetModules();',
    ...preloadLines(spec).map((line) => `  ${line}`),
    `  ${load}`,
    '});',
  ];
}

// The files of the module's require cycle that it loads after, as its package loads it
// (`import '…';` in an ES module test file, whose imports run in their order).
function preloadLines(spec, esm = false) {
  const requests = spec.preloadRequests || [];
  if (!requests.length) return [];
  return [
    `// ${spec.sourcePath} is part of a require cycle: it loads the way its package loads it, after its entry.`,
    ...requests.map((request) => (esm ? `import ${quoteString(request)};` : `require(${quoteString(request)});`)),
  ];
}

function importLines(spec, body) {
  const used = usedBindings(spec, body);
  if (spec.isolated && used.length) return isolatedLoadLines(spec, used);
  if (!used.length) return [];
  if (!spec.esm)
    return [
      ...preloadLines(spec),
      ...used.map((binding) => `const ${binding.name} = require(${quoteString(spec.request)});`),
    ];
  const first = preloadLines(spec, true);
  const namespace = used.find((binding) => binding.from === 'module');
  if (namespace) return [...first, `import * as ${namespace.name} from ${quoteString(spec.request)};`];
  const defaultBinding = used.find((binding) => binding.from === 'default');
  const named = used
    .filter((binding) => binding.from === 'named')
    .map((binding) => (binding.key === binding.name ? binding.name : `${binding.key} as ${binding.name}`));
  const parts = [];
  if (defaultBinding) parts.push(defaultBinding.name);
  if (named.length) parts.push(`{ ${named.join(', ')} }`);
  return parts.length ? [...first, `import ${parts.join(', ')} from ${quoteString(spec.request)};`] : [];
}

// Switches of the process the tests set (spec.processSwitches: `process.stderr.isTTY`) and the
// events they listen for on it (spec.processEvents: 'deprecation'): each test starts from the
// values and listeners there were when the file loaded, as each scenario did.
function processSwitchLines(callees = [], events = []) {
  const pairs = callees.map((callee) => {
    const dot = callee.lastIndexOf('.');
    return `  [${callee.slice(0, dot)}, ${quoteString(callee.slice(dot + 1))}],`;
  });
  const switches = !pairs.length
    ? []
    : [
        '// Tests set switches of the process: each test starts from the values they have here.',
        'const processSwitches = [',
        ...pairs,
        '].map(([owner, key]) => [owner, key, Object.getOwnPropertyDescriptor(owner, key)]);',
        'afterEach(() => {',
        '  for (const [owner, key, descriptor] of processSwitches) {',
        '    if (descriptor) Object.defineProperty(owner, key, descriptor);',
        '    else delete owner[key];',
        '  }',
        '});',
      ];
  const listeners = !events.length
    ? []
    : [
        '// Tests listen for events of the process: the listeners each adds are removed after it.',
        `const processListeners = [${events.map(quoteString).join(', ')}].map((event) => [event, process.listeners(event)]);`,
        'afterEach(() => {',
        '  for (const [event, kept] of processListeners)',
        '    for (const listener of process.listeners(event)) if (!kept.includes(listener)) process.removeListener(event, listener);',
        '});',
      ];
  return [...switches, ...(switches.length && listeners.length ? [''] : []), ...listeners];
}

// spec: { sourcePath, request, esm, bindings, isolated, fakeTimers, processSwitches, processEvents }.
// Returns the test file's text.
function writeTestFile(spec, cases) {
  const blocks = [];
  const describes = [...new Set(cases.map((testCase) => testCase.describe))];
  for (const describeName of describes) {
    const tests = cases
      .filter((testCase) => testCase.describe === describeName)
      .map((testCase) => {
        const body = testCase.lines.map((line) => `${INDENT}${line}`).join('\n');
        return `  test(${quoteString(testCase.name)}, ${testCase.async ? 'async ' : ''}() => {\n${body}\n  });`;
      });
    blocks.push(`describe(${quoteString(describeName)}, () => {\n${tests.join('\n\n')}\n});`);
  }
  const body = blocks.join('\n\n');
  const helpers = [...new Set(cases.flatMap((testCase) => [...testCase.helpers]))]
    .sort()
    .map((name) => HELPERS[name].join('\n'));
  const header = [
    `// Tests generated by Vouch for ${spec.sourcePath}.`,
    '// Every expectation below is what the code returned, threw or resolved to when Vouch ran it.',
    ...importLines(spec, body),
    // The fresh folder's helpers keep the real setTimeout, before timers are faked.
    ...(spec.freshFolder ? ['', ...FRESH_FOLDER] : []),
    ...((spec.processSwitches || []).length || (spec.processEvents || []).length
      ? ['', ...processSwitchLines(spec.processSwitches, spec.processEvents)]
      : []),
    // Timers the code schedules fire only when a test moves them, and never after it.
    ...(spec.fakeTimers ? ['', 'jest.useFakeTimers({ advanceTimers: true });'] : []),
  ].join('\n');
  return [header, ...helpers, body].join('\n\n') + '\n';
}

module.exports = { testFileFor, requestFrom, prepareTestCase, uniqueNames, writeTestFile };
