'use strict';
// End to end: bin/generate.js reads a job, returns tests; the tests are then run by Jest here,
// independently, and must all pass and reach the coverage the result states.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const RUNNER = path.resolve(__dirname, '..', '..');
const GENERATE = path.join(RUNNER, 'bin', 'generate.js');
// Sources in tests/fixtures that the server's tests and the benches use too.
const fixture = (name) => fs.readFileSync(path.join(RUNNER, '..', 'tests', 'fixtures', name), 'utf8');

function runGenerate(job) {
  const output = spawnSync(process.execPath, [GENERATE], {
    input: typeof job === 'string' ? job : JSON.stringify(job),
    maxBuffer: 64 << 20,
  });
  return { status: output.status, result: JSON.parse(output.stdout.toString()), stderr: output.stderr.toString() };
}

// Runs a generation that must succeed and returns its answer.
function generated(job) {
  const { status, result, stderr } = runGenerate(job);
  assert.equal(status, 0, stderr);
  return result;
}

// user: { uid, gid, home } to run Jest as another user with another home (needs root).
function runJest(files, user = null) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-generate-e2e-'));
  try {
    for (const file of files) {
      fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, file.path), file.content);
    }
    if (user) spawnSync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
    // As the run side does: coverage over every source file, tested or not.
    spawnSync(
      process.execPath,
      [
        require.resolve('jest/bin/jest'),
        '--ci',
        '--json',
        '--outputFile=results.json',
        '--coverage',
        '--coverageReporters=json-summary',
        '--coverageDirectory=coverage',
        '--runInBand',
        '--forceExit',
        '--silent',
        '--collectCoverageFrom=**/*.{js,mjs,cjs}',
        '--collectCoverageFrom=!**/jest.config.js',
      ],
      {
        cwd: dir,
        env: {
          ...process.env,
          NODE_PATH: path.join(RUNNER, 'node_modules'),
          ...(user ? { HOME: user.home, TMPDIR: user.home } : {}),
        },
        ...(user ? { uid: user.uid, gid: user.gid } : {}),
      },
    );
    return {
      results: JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8')),
      coverage: JSON.parse(fs.readFileSync(path.join(dir, 'coverage', 'coverage-summary.json'), 'utf8')).total,
      // What the folder holds after the run (the tests' own files included).
      folderAfter: fs.readdirSync(dir),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Runs the sources and the generated files in Jest: every kept test passes and every suite runs.
// Jest's results and coverage, for what else a test checks.
function runKeptSuite(files, result) {
  const run = runJest([...files, ...result.files]);
  assert.equal(run.results.numFailedTests, 0);
  assert.equal(run.results.numRuntimeErrorTestSuites, 0);
  assert.equal(run.results.numPassedTests, result.summary.testsKept);
  return run;
}

const SOURCES = [
  {
    path: 'src/duration.js',
    content: `'use strict';
const UNITS = { ms: 1, s: 1000, m: 60000, h: 3600000 };

function parse(text) {
  const match = /^(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)$/.exec(text.trim());
  if (!match) throw new Error('cannot parse ' + JSON.stringify(text));
  return Number(match[1]) * UNITS[match[2]];
}

function format(ms, { long = false } = {}) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) throw new TypeError('ms must be a finite number');
  const abs = Math.abs(ms);
  for (const unit of ['h', 'm', 's']) {
    if (abs >= UNITS[unit]) {
      const n = Math.round(ms / UNITS[unit]);
      return long ? n + ' ' + { h: 'hour', m: 'minute', s: 'second' }[unit] + (Math.abs(n) === 1 ? '' : 's') : n + unit;
    }
  }
  return ms + 'ms';
}

module.exports = { parse, format };
`,
  },
  {
    path: 'src/inventory.js',
    content: `class Inventory {
  constructor(owner) {
    if (!owner) throw new Error('owner is required');
    this.owner = owner;
    this.items = {};
  }
  add(name, count = 1) {
    if (count <= 0) throw new RangeError('count must be positive');
    this.items[name] = (this.items[name] || 0) + count;
    return this.items[name];
  }
  remove(name) {
    if (!(name in this.items)) return false;
    delete this.items[name];
    return true;
  }
  get size() { return Object.keys(this.items).length; }
  static of(owner, names) { const inventory = new Inventory(owner); names.forEach((name) => inventory.add(name)); return inventory; }
}
module.exports = Inventory;
`,
  },
  {
    path: 'src/users.mjs',
    content: `const USERS = [{ id: 1, name: 'Ada' }, { id: 2, name: 'Linus' }];

export async function findUser(id) {
  await new Promise((resolve) => setTimeout(resolve, 1));
  const user = USERS.find((candidate) => candidate.id === id);
  if (!user) throw new Error('no user ' + id);
  return user;
}

export function* evens(limit) {
  for (let n = 0; n <= limit; n += 2) yield n;
}

export default function greet(user, greeting = 'Hello') {
  return greeting + ', ' + (user && user.name ? user.name : 'stranger') + '!';
}
`,
  },
];

// A job on a machine busy with other work says so as a problem of its own (pipeline.js,
// busyMachineProblem); what a test checks is the rest.
function withoutBusyMachine(problems) {
  return problems.filter((problem) => !(problem.code === 'timeout' && /^the machine was busy/.test(problem.message)));
}

// generated(job), whose summary states no problem but a busy machine.
function generatedCleanly(job) {
  const result = generated(job);
  assert.deepEqual(withoutBusyMachine(result.summary.problems), []);
  return result;
}

test('generates tests that pass under Jest and reach the coverage they state', () => {
  const result = generated({ files: SOURCES, framework: 'jest', threshold: 80, timeBudgetMs: 60000 });
  const { summary } = result;
  assert.deepEqual(withoutBusyMachine(summary.problems), []);
  assert.ok(summary.testsKept > 5, `kept ${summary.testsKept} tests`);
  assert.ok(result.files.some((file) => file.path === 'src/__tests__/duration.test.js'));
  assert.ok(result.files.some((file) => file.path === 'src/__tests__/inventory.test.js'));
  assert.ok(result.files.some((file) => file.path === 'src/__tests__/users.test.js'));
  assert.match(
    result.files.find((file) => file.path === 'src/__tests__/duration.test.js').content,
    /require\('\.\.\/duration'\)/,
  );

  const { results, coverage } = runJest([...SOURCES, ...result.files]);
  assert.equal(results.numFailedTests, 0);
  assert.equal(results.numRuntimeErrorTestSuites, 0);
  assert.equal(results.numPassedTests, summary.testsKept);
  for (const metric of ['statements', 'branches', 'functions', 'lines']) {
    assert.ok(
      Math.abs(coverage[metric].pct - summary.coverage[metric]) <= 0.5,
      `${metric}: jest ${coverage[metric].pct}, stated ${summary.coverage[metric]}`,
    );
  }
  assert.ok(summary.coverage.statements >= 90, `statements ${summary.coverage.statements}`);
  assert.ok(summary.coverage.branches >= 75, `branches ${summary.coverage.branches}`);
});

test('reports bad files as problems and still tests the good ones', () => {
  const files = [
    { path: 'lib/ok.js', content: 'module.exports = (a, b) => (a > b ? a : b);\n' },
    { path: 'lib/broken.js', content: 'const a = 1;\nfunction (x {\n' },
    { path: 'lib/types.ts', content: 'export const a: number = ;\n' },
    { path: 'lib/App.jsx', content: 'export const App = () => <p>hi</p>;\n' },
    { path: 'lib/logo.js', content: '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR' },
    { path: 'lib/http.js', content: "const axios = require('axios');\nmodule.exports = (url) => axios.get(url);\n" },
    { path: 'lib/crash.js', content: "throw new Error('boom at load');\n" },
    { path: 'lib/hang.js', content: 'while (true) {}\n' },
  ];
  const result = generated({ files, timeBudgetMs: 60000 });
  const byPath = Object.fromEntries(result.summary.problems.map((problem) => [problem.path, problem]));
  assert.deepEqual(byPath['lib/broken.js'], {
    path: 'lib/broken.js',
    code: 'syntax_error',
    message: 'Unexpected token',
    line: 2,
    column: 10,
  });
  assert.deepEqual(byPath['lib/types.ts'], {
    path: 'lib/types.ts',
    code: 'syntax_error',
    message: 'Unexpected token',
    line: 1,
    column: 26,
  });
  assert.equal(byPath['lib/App.jsx'].code, 'not_javascript');
  assert.equal(byPath['lib/logo.js'].code, 'not_javascript');
  assert.equal(byPath['lib/http.js'].code, 'missing_module');
  assert.equal(byPath['lib/http.js'].module, 'axios');
  assert.match(byPath['lib/http.js'].message, /axios/);
  assert.equal(byPath['lib/crash.js'].code, 'load_error');
  assert.match(byPath['lib/crash.js'].message, /boom at load/);
  assert.equal(byPath['lib/hang.js'].code, 'timeout');
  assert.equal(withoutBusyMachine(result.summary.problems).length, 7);
  assert.ok(result.summary.testsKept >= 2);
  assert.deepEqual(result.files.map((file) => file.path).sort(), ['jest.config.js', 'lib/__tests__/ok.test.js']);
});

test('answers a malformed job with an error and exit code 1', () => {
  const { status, result } = runGenerate('{"files": "nope"}');
  assert.equal(status, 1);
  assert.deepEqual(result, { error: 'files must be a non-empty array' });
});

test('support files are written beside the sources, never targets: a module requiring its package.json and reading a text file', () => {
  const files = [
    { path: 'pkg/package.json', content: JSON.stringify({ name: 'greeter', version: '1.2.3' }) },
    { path: 'pkg/words.txt', content: 'hello\nhowdy\n' },
    { path: 'pkg/index.d.ts', content: 'export declare function greet(name: string): string;\n' },
    {
      path: 'pkg/index.js',
      content: `const fs = require('fs');
const path = require('path');
const { version } = require('./package.json');
const words = fs.readFileSync(path.join(__dirname, 'words.txt'), 'utf8').trim().split('\\n');
exports.version = () => version;
exports.greet = (name, index = 0) => words[index % words.length] + ', ' + name;
`,
    },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 60000 });
  assert.deepEqual(
    result.summary.perFile.map((file) => file.path),
    ['pkg/index.js'],
  );
  const test = result.files.find((file) => file.path === 'pkg/__tests__/index.test.js').content;
  assert.match(test, /'1\.2\.3'/);
  assert.match(test, /'hello, /);
  runKeptSuite(files, result);
});

test('tests real-code shapes: X.prototype = {…} methods, an EventEmitter class by its events, a factory of closures in sequence, timers with fake timers', () => {
  const files = [
    {
      path: 'lib/money.js',
      content: `function Money(cents, currency) {
  if (!(this instanceof Money)) return new Money(cents, currency);
  if (!Number.isInteger(cents)) throw new TypeError('cents must be an integer');
  this.cents = cents;
  this.currency = currency || 'EUR';
}
Money.prototype = {
  plus(other) {
    if (other.currency !== this.currency) throw new Error('currency mismatch');
    return new Money(this.cents + other.cents, this.currency);
  },
  times(factor) { return new Money(Math.round(this.cents * factor), this.currency); },
  get euros() { return this.cents / 100; },
  format() { return (this.cents < 0 ? '-' : '') + Math.abs(this.cents / 100).toFixed(2) + ' ' + this.currency; },
};
module.exports = Money;
`,
    },
    {
      path: 'lib/queue.js',
      content: `const { EventEmitter } = require('events');
class Queue extends EventEmitter {
  constructor(limit) { super(); this.limit = limit || 2; this.items = []; }
  push(item) {
    if (this.items.length >= this.limit) { this.emit('overflow', item); return false; }
    this.items.push(item);
    this.emit('push', item, this.items.length);
    return true;
  }
  shift() { const item = this.items.shift(); if (item !== undefined) this.emit('shift', item); return item; }
}
module.exports = Queue;
`,
    },
    {
      path: 'lib/tally.js',
      content: `exports.createTally = function createTally(step) {
  let total = 0;
  return {
    bump() { total += step || 1; },
    value() { return total; },
  };
};
exports.later = function later(callback, ms) {
  // At least a second: a timer the test must move the clock for, whatever ms it passes.
  const timer = setTimeout(() => callback('done'), 1000 + (ms || 0));
  return () => clearTimeout(timer);
};
`,
    },
    {
      path: 'lib/paint.js',
      content: `const paint = {
  enabled: undefined,
  wrap(text) { return paint.enabled ? '[' + text + ']' : String(text); },
  relay(callback) { return function () { return callback(arguments); }; },
};
module.exports = paint;
`,
    },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 60000 });
  const content = (path) => result.files.find((file) => file.path === path).content;
  const money = content('lib/__tests__/money.test.js');
  for (const method of ['plus', 'times', 'euros', 'format']) assert.match(money, new RegExp(`\\.${method}\\b`), method);
  assert.match(
    money,
    /toThrow\(expect\.objectContaining\(\{ name: 'TypeError', message: 'cents must be an integer' \}\)\)/,
  );
  const queue = content('lib/__tests__/queue.test.js');
  assert.match(queue, /const events = recordEvents\(queue\);/);
  assert.match(queue, /expect\(events\)\.toEqual\(\[\['push', /);
  assert.doesNotMatch(
    queue,
    /\.on\(|_eventsCount/,
    'inherited EventEmitter methods are not targets, nor its bookkeeping state',
  );
  const tally = content('lib/__tests__/tally.test.js');
  assert.match(tally, /jest\.useFakeTimers\(\{ advanceTimers: true \}\);/);
  assert.match(
    tally,
    /\.bump\(\)[^]*\.value\(\)\)\.toBe\(/,
    'a void call is followed by a read of the state it changed',
  );
  assert.match(tally, /jest\.(advanceTimersByTime|runOnlyPendingTimers)\(/);
  assert.match(tally, /toEqual\(\[\['done'\]\]\)/, 'the callback fires when the test moves the clock');
  const paint = content('lib/__tests__/paint.test.js');
  assert.match(
    paint,
    /paint\.enabled = true;\n\s*expect\(paint\.wrap\([^)]*\)\)\.toBe\('\[/,
    'a switch of the module is flipped before a call',
  );
  assert.match(paint, /jest\.resetModules\(\);/, 'tests that flip a switch load the module afresh');
  assert.match(
    paint,
    /expect\.objectContaining\(\{ (0: .*, )?length: \d+ \}\)/,
    'arguments objects are asserted by items and length',
  );

  const { coverage } = runKeptSuite(files, result);
  assert.ok(coverage.statements.pct >= 90, `statements ${coverage.statements.pct}`);
});

test('installed dependencies (nodePath) resolve for the code under test, in the child and in verification; without them the module is missing_module', () => {
  const deps = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-generate-deps-'));
  const nodePath = path.join(deps, 'node_modules');
  const write = (file, content) => {
    fs.mkdirSync(path.dirname(path.join(nodePath, file)), { recursive: true });
    fs.writeFileSync(path.join(nodePath, file), content);
  };
  // A package with a dependency of its own, found by Node's resolution from the package's folder.
  write('clamp-num/package.json', JSON.stringify({ name: 'clamp-num', version: '1.0.0', main: 'lib/clamp.js' }));
  write(
    'clamp-num/lib/clamp.js',
    "const isNum = require('is-num');\nmodule.exports = (n, lo, hi) => (isNum(n) ? Math.min(hi, Math.max(lo, n)) : lo);\n",
  );
  write('is-num/package.json', JSON.stringify({ name: 'is-num', version: '1.0.0' }));
  write('is-num/index.js', "module.exports = (n) => typeof n === 'number' && Number.isFinite(n);\n");
  // A dependency's wrapper around the module's own functions (as wrappy wraps once).
  write('wrap-fn/index.js', 'module.exports = (fn) => function wrapper() { return fn.apply(this, arguments); };\n');
  const wrapped = {
    path: 'first.js',
    content: `const wrap = require('wrap-fn');
function first(fn) {
  let done = false;
  let value;
  return function () { if (done) return value; done = true; value = fn.apply(this, arguments); return value; };
}
module.exports = wrap(first);
module.exports.strict = wrap(function strictFirst(fn) {
  let calls = 0;
  return function () { if (calls++) throw new Error('called twice'); return fn(); };
});
`,
  };
  const files = [
    {
      path: 'percent.js',
      content: `const clamp = require('clamp-num');
exports.percent = (part, whole) => {
  if (whole === 0) throw new RangeError('whole must not be 0');
  return clamp(Math.round((part / whole) * 100), 0, 100) + '%';
};
`,
    },
  ];
  try {
    const result = generatedCleanly({ files: [...files, wrapped], nodePath, timeBudgetMs: 60000 });
    assert.ok(result.summary.testsKept >= 2, JSON.stringify(result.summary));
    const test = result.files.find((file) => file.path === '__tests__/percent.test.js').content;
    assert.match(test, /'\d+%'/);
    assert.match(test, /name: 'RangeError', message: 'whole must not be 0'/);
    assert.equal(result.summary.perFile.find((file) => file.path === 'percent.js').coverage.statements, 100);
    // The wrapped functions are targets, called with a function, their result called again.
    const first = result.files.find((file) => file.path === '__tests__/first.test.js').content;
    assert.match(first, /wrapper\.strict\(/);
    assert.match(first, /message: 'called twice'/);
    assert.equal(result.summary.perFile.find((file) => file.path === 'first.js').coverage.statements, 100);

    const without = runGenerate({ files, timeBudgetMs: 5000 }).result;
    assert.deepEqual(
      without.summary.problems.map((p) => [p.code, p.module]),
      [['missing_module', 'clamp-num']],
    );
    // The runner's own packages never resolve for the code under test.
    const own = runGenerate({
      files: [{ path: 'a.js', content: "const acorn = require('acorn');\nexports.v = () => acorn.version;\n" }],
      nodePath,
      timeBudgetMs: 5000,
    }).result;
    assert.deepEqual(
      own.summary.problems.map((p) => [p.code, p.module]),
      [['missing_module', 'acorn']],
    );
    assert.equal(runGenerate({ files, nodePath: 'relative/node_modules' }).status, 1);
  } finally {
    fs.rmSync(deps, { recursive: true, force: true });
  }
});

test('ES modules importing each other and TypeScript get tests through the one shared transform, run as a run runs them', () => {
  const files = [
    { path: 'src/slug.mjs', content: "export const slug = (words) => words.join('-').toLowerCase();\n" },
    {
      path: 'src/title.mjs',
      content:
        "import { slug } from './slug.mjs';\nexport default function title(words) {\n  if (!Array.isArray(words)) throw new TypeError('words must be an array');\n  return words.join(' ') + ' [' + slug(words) + ']';\n}\n",
    },
    {
      path: 'src/ruler.ts',
      content:
        "export enum Unit { Cm = 'cm', In = 'in' }\nexport class Ruler {\n  constructor(private unit: Unit = Unit.Cm) {}\n  label(value: number): string {\n    if (value < 0) throw new RangeError('negative length');\n    return value.toFixed(1) + ' ' + this.unit;\n  }\n}\n",
    },
    { path: 'src/types.d.ts', content: 'export declare const x: number;\n' },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 60000 });
  // Without a package.json no entry point orders the targets: they come in path order.
  assert.deepEqual(
    result.summary.perFile.map((file) => file.path),
    ['src/ruler.ts', 'src/slug.mjs', 'src/title.mjs'],
  );
  const content = (path) => result.files.find((file) => file.path === path).content;
  assert.match(content('src/__tests__/title.test.js'), /^import title from '\.\.\/title\.mjs';$/m);
  assert.match(content('src/__tests__/ruler.test.js'), /^import \{ Ruler \} from '\.\.\/ruler';$/m);
  assert.match(content('src/__tests__/ruler.test.js'), /name: 'RangeError', message: 'negative length'/);
  assert.match(content('jest.config.js'), /presets: \['@babel\/preset-typescript'\]/);
  assert.equal(result.summary.coverage.statements, 100);
  const { coverage } = runKeptSuite(files, result);
  assert.equal(coverage.statements.pct, 100);
});

test('a class whose methods must be called in order gets tests that call each where it completes; no test asserts the environment it was generated in', () => {
  const files = [
    { path: 'lib/journal.js', content: fixture('classes/journal.js') },
    {
      path: 'lib/owner.js',
      content: `const os = require('os');
const path = require('path');
exports.describeOwner = (label) => ({ label: String(label), uid: process.getuid(), pid: process.pid, host: os.hostname(), home: os.homedir() });
exports.account = () => os.userInfo().username;
exports.cachePath = (name) => path.join(os.homedir(), '.cache', String(name));
`,
    },
  ];
  const result = generated({ files, timeBudgetMs: 60000 });
  // (A busy machine is said as a problem too.)
  assert.deepEqual(
    result.summary.problems.filter((problem) => problem.code !== 'timeout'),
    [],
  );
  const content = (name) => result.files.find((file) => file.path === name).content;
  const journal = content('lib/__tests__/journal.test.js');
  for (const method of ['write', 'close']) {
    assert.match(
      journal,
      new RegExp(`\\.open\\([^]*expect\\(journalInstance\\.${method}\\([^)]*\\)\\)\\.toBe\\(`),
      `${method} completes after open`,
    );
  }
  const owner = content('lib/__tests__/owner.test.js');
  for (const value of [process.getuid(), os.hostname(), os.homedir(), os.userInfo().username]) {
    assert.ok(
      !owner.includes(`: ${typeof value === 'string' ? `'${value}'` : value},`),
      `${value} is asserted:\n${owner}`,
    );
  }
  assert.match(owner, /uid: expect\.any\(Number\)/);
  assert.doesNotMatch(owner, /owner\.account\(\)/, 'whether the user has an account differs from machine to machine');

  // As another user with another home, when this test may switch users.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-other-home-'));
  try {
    const user = process.getuid() === 0 ? { uid: 54321, gid: 54321, home } : null;
    if (user) fs.chownSync(home, user.uid, user.gid);
    const { results, coverage } = runJest([...files, ...result.files], user);
    assert.equal(results.numFailedTests, 0);
    assert.equal(results.numPassedTests, result.summary.testsKept);
    assert.ok(coverage.statements.pct >= 90, `statements ${coverage.statements.pct}`);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test("a source named test.js is tested, not taken by Jest for a test file of the suite's", () => {
  // The entry point reaches lib/test.js: a source, whatever its name (chai's lib/chai/utils/test.js).
  const files = [
    { path: 'package.json', content: JSON.stringify({ name: 'kinds', version: '1.0.0', main: 'index.js' }) },
    {
      path: 'index.js',
      content:
        "const test = require('./lib/test');\nexports.kind = (value) => (test.isText(value) ? 'text' : 'other');\n",
    },
    { path: 'lib/test.js', content: "exports.isText = (value) => typeof value === 'string';\n" },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 60000 });
  const paths = result.files.map((file) => file.path);
  assert.ok(paths.includes('__tests__/index.test.js') && paths.includes('lib/__tests__/test.test.js'), paths.join());
  assert.match(result.files.find((file) => file.path === 'jest.config.js').content, /testMatch/);
});

test("a callback API over files is called with the paths of a fixture its tests write: a file, a folder, an empty one, a missing one; a stream opens its file in its test's folder", () => {
  const files = [
    {
      path: 'store.js',
      content: `'use strict';
const fs = require('fs');
exports.readText = function readText(file, cb) {
  fs.readFile(file, 'utf8', function (err, text) {
    if (err && err.code === 'ENOENT') return cb(null, '');
    if (err) return cb(new Error('cannot read ' + file + ': ' + err.code));
    cb(null, text.trim().toUpperCase());
  });
};
// The stream opens its file on the next tick, once the call has returned; the tests fake timers.
exports.reader = function reader(file) {
  return fs.createReadStream(file).path;
};
exports.later = function later(cb) {
  setTimeout(cb, 10);
};
exports.list = function list(dir, cb) {
  fs.readdir(dir, function (err, names) {
    if (err) return cb(err);
    cb(null, names.length ? names.sort().join(',') : 'nothing');
  });
};
`,
    },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 60000 });
  const suite = result.files.find((file) => file.path === '__tests__/store.test.js').content;
  // What the callbacks report for what is there: a file's text, a folder, its entries, no entry.
  for (const reported of [
    "[[null, 'HELLO']]",
    'cannot read folder: EISDIR',
    "[[null, 'a.txt']]",
    "[[null, 'nothing']]",
  ])
    assert.ok(suite.includes(reported), `${reported} is not asserted:\n${suite}`);
  // Each test's file-system requests end in its own folder: the stream opens file.txt there.
  assert.match(suite, /store\.reader\('file\.txt'\)/);
  const { coverage } = runKeptSuite(files, result);
  assert.equal(coverage.statements.pct, 100);
});

test('a file in the middle of a require cycle loads the way its package loads it, after the entry, and gets tests', () => {
  // Required first, lib/utils.js and lib/upper.js reach lib/core.js while lib/utils.js is still
  // half loaded, and core's top level calls `utils.upper`: TypeError (chai's utils/index.js).
  const files = [
    { path: 'package.json', content: JSON.stringify({ name: 'cycle', version: '1.0.0', main: 'index.js' }) },
    { path: 'index.js', content: "module.exports = require('./lib/core');\n" },
    {
      path: 'lib/core.js',
      content:
        "const utils = require('./utils');\nexports.LOUD = utils.upper('hi');\nexports.shout = (text) => utils.upper(text) + '!';\n",
    },
    {
      path: 'lib/utils.js',
      content: "exports.upper = require('./upper');\nexports.quiet = (text) => String(text).toLowerCase();\n",
    },
    {
      path: 'lib/upper.js',
      content:
        "const core = require('./core');\nmodule.exports = function upper(text) {\n  return String(text).toUpperCase() + (core.suffix || '');\n};\n",
    },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 60000 });
  const test = (name) => result.files.find((file) => file.path === `lib/__tests__/${name}.test.js`);
  for (const name of ['utils', 'upper']) {
    assert.ok(test(name), `no tests for lib/${name}.js`);
    assert.match(test(name).content, /require\('\.\.\/\.\.\/index\.js'\);\n(const \w+ = )?require\('\.\.\/\w+'\)/);
  }
  runKeptSuite(files, result);
});

test('a package.json with its own "jest" key gets the configuration in that key, and a plain Jest run in the folder passes', () => {
  // As published packages keep it for their own tests: a setup file and a test folder the tarball
  // leaves out. Beside a jest.config.js, Jest would refuse to start ("Multiple configurations found").
  const manifest = {
    name: 'spans',
    version: '1.0.0',
    main: 'index.js',
    jest: { roots: ['test'], setupFilesAfterEnv: ['./test-setup.js'] },
    license: 'MIT',
  };
  const files = [
    { path: 'package.json', content: `${JSON.stringify(manifest, null, 4)}\n` },
    {
      path: 'index.js',
      content:
        "exports.span = (from, to) => {\n  if (to < from) throw new RangeError('to < from');\n  return to - from;\n};\n",
    },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 60000 });
  const paths = result.files.map((file) => file.path);
  assert.ok(!paths.includes('jest.config.js'), paths.join());
  const returned = JSON.parse(result.files.find((file) => file.path === 'package.json').content);
  assert.deepEqual(Object.keys(returned), Object.keys(manifest));
  assert.deepEqual(returned.jest.testMatch, ['**/__tests__/**/*.test.?([mc])[jt]s?(x)']);
  assert.equal(returned.license, 'MIT');
  assert.match(result.files.find((file) => file.path === 'package.json').content, /^\{\n {4}"name"/);
  // The returned package.json stands for the submitted one on the run path: not among the sources.
  assert.ok(!result.sources.includes('package.json'), result.sources.join());
  const { results } = runKeptSuite(files, result);
  assert.ok(results.numPassedTests >= 1);
});

test("a program's command lines also run in the test's own process, so the run's coverage counts its code", () => {
  const files = [
    {
      path: 'package.json',
      content: JSON.stringify({ name: 'greet', version: '1.0.0', main: 'index.js', bin: { greet: 'bin/greet.js' } }),
    },
    { path: 'index.js', content: "exports.greet = (name) => 'hello ' + name;\n" },
    {
      path: 'bin/greet.js',
      content: `#!/usr/bin/env node
const { greet } = require('..');
const args = process.argv.slice(2);
if (args.includes('--help')) {
  console.log('usage: greet NAME');
  process.exit(0);
}
if (!args.length) {
  process.stderr.write('greet: a name is needed\\n');
  process.exit(2);
}
require('fs').writeFileSync('greeted.txt', args[0]);
process.stdout.write(greet(args[0]) + '\\n');
`,
    },
  ];
  const result = generated({ files, timeBudgetMs: 20000 });
  const programTest = result.files.find((file) => file.path === 'bin/__tests__/greet.program.test.js');
  assert.ok(programTest, result.files.map((file) => file.path).join());
  // Spawned as users run it, and required here with its command line, output and exit captured.
  assert.match(programTest.content, /run\(\['--help'\], ''\)/);
  assert.match(programTest.content, /runHere\(\['--help'\]\);\n\s+expect\(result\.status\)\.toBe\(0\);/);
  assert.match(programTest.content, /runHere\(\[\]\);\n\s+expect\(result\.status\)\.toBe\(2\);/);
  assert.match(programTest.content, /runHere\(\['hello'\]\);/);
  // Spawned only, bin/greet.js would count at 0%: every statement of both files ran in the run,
  // and what the program wrote went to an empty folder of its own, not the package's.
  const { coverage, folderAfter } = runKeptSuite(files, result);
  assert.equal(coverage.statements.covered, coverage.statements.total);
  assert.ok(!folderAfter.includes('greeted.txt'), folderAfter.join());
});

test("a program that works after its top level returns runs in the test's process too, waited for, each command line once", () => {
  // Its work and output come from a file-system callback and a promise, after `require` returned;
  // `--quiet hello` prints what `hello` prints, and only it reads the option.
  const files = [
    {
      path: 'package.json',
      content: JSON.stringify({ name: 'touch', version: '1.0.0', bin: { touch: 'bin/touch.js' } }),
    },
    {
      path: 'bin/touch.js',
      content: `#!/usr/bin/env node
const fs = require('fs');
let quiet = false;
const names = process.argv.slice(2).filter((arg) => {
  if (arg === '--quiet') quiet = true;
  return !arg.startsWith('--');
});
if (!names.length) {
  console.error('usage: touch NAME...');
  process.exit(2);
}
Promise.all(names.map((name) => fs.promises.writeFile(name, '')))
  .then(() => {
    if (quiet) return;
    fs.readdir('.', (er, entries) => {
      console.log('made ' + entries.length);
    });
  })
  .catch((er) => {
    console.error(er.code);
    process.exit(1);
  });
`,
    },
  ];
  const result = generated({ files, timeBudgetMs: 20000 });
  const programTest = result.files.find((file) => file.path === 'bin/__tests__/touch.program.test.js');
  assert.ok(programTest, result.files.map((file) => file.path).join());
  assert.deepEqual(result.summary.problems, []);
  assert.match(
    programTest.content,
    /await runHere\(\['hello'\]\);\n\s+expect\(result\.status\)\.toBe\(0\);\n\s+expect\(result\.stdout\)\.toBe\('made 1\\n'\);/,
  );
  assert.match(programTest.content, /await runHere\(\['--quiet', 'hello'\]\);/);
  const { coverage } = runKeptSuite(files, result);
  // All but the two statements of the `catch` body: no write fails.
  assert.equal(coverage.statements.covered, coverage.statements.total - 2);
});

test("a class keeping its state in a Set subclass gets tests that Jest passes: the subclass's instances are asserted as what they are", () => {
  const files = [
    {
      path: 'tags.js',
      content: `'use strict';
class TagSet extends Set {
  describe() {
    return [...this.values()].sort().join(',');
  }
}
class Post {
  constructor(title) {
    this.title = String(title);
    this.tags = new TagSet();
  }
  tag(name) {
    if (typeof name !== 'string' || name === '') throw new TypeError('a tag is a non-empty string');
    this.tags.add(name.toLowerCase());
    return this;
  }
  untag(name) {
    this.tags.delete(name);
    return this;
  }
  label() {
    return this.tags.size === 0 ? this.title : this.title + ' [' + this.tags.describe() + ']';
  }
}
module.exports = { Post };
`,
    },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 30000 });
  // Before, every test that compared a Post failed in Jest (\`new Set([])\` against a TagSet) and
  // verification dropped them all.
  assert.ok(result.summary.testsKept >= 3, `kept ${result.summary.testsKept}`);
  const suite = result.files.find((file) => file.path === '__tests__/tags.test.js').content;
  assert.match(suite, /tags: expect\.any\(Set\)/);
  const { coverage } = runKeptSuite(files, result);
  assert.ok(coverage.statements.pct >= 90, `statements ${coverage.statements.pct}`);
});

test("an assertion library: a Proxy that throws on unknown properties is never compared whole, and a returned value named `expect` does not hide Jest's", () => {
  const files = [
    {
      path: 'should.js',
      content: `'use strict';
class Assertion {
  constructor(actual) {
    this.actual = actual;
    this.negate = false;
  }
  not() {
    this.negate = !this.negate;
    return this;
  }
  equal(expected) {
    const same = this.actual === expected;
    if (same === this.negate) throw new Error('expected ' + String(this.actual) + (this.negate ? ' not' : '') + ' to equal ' + String(expected));
    return this;
  }
}
// As chai does: reading a property the assertion does not have is a mistake worth an error.
function strict(target) {
  return new Proxy(target, {
    get(object, name) {
      if (typeof name === 'string' && !(name in object)) throw new Error('Invalid property: ' + name);
      return Reflect.get(object, name);
    },
  });
}
function expect(actual) {
  return strict(new Assertion(actual));
}
module.exports = { expect, Assertion };
`,
    },
  ];
  const result = generatedCleanly({ files, timeBudgetMs: 30000 });
  const suite = result.files.find((file) => file.path === '__tests__/should.test.js').content;
  assert.doesNotMatch(suite, /(const|let) expect\b/);
  assert.match(suite, /\.equal\(/);
  assert.ok(result.summary.testsKept >= 3, `kept ${result.summary.testsKept}`);
  const { coverage } = runKeptSuite(files, result);
  assert.ok(coverage.statements.pct >= 90, `statements ${coverage.statements.pct}`);
});
