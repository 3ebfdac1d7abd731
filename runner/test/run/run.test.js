'use strict';

// run.js end to end, without the sandbox: the job goes in on stdin, the
// result comes out on stdout, as the server sees it.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { createCoverageMap } = require('istanbul-lib-coverage');
const { WarmRunner } = require('../../src/run/client');
const { writeFiles } = require('../../src/run/workspace');
const { COVERAGE_REPORT_DIR } = require('../../src/run/jest-argv');

const JEST_BIN = path.join(__dirname, '..', '..', 'node_modules', 'jest', 'bin', 'jest.js');

const MATH = {
  path: 'src/math.js',
  content: `
function add(a, b) { return a + b; }
function divide(a, b) {
  if (b === 0) throw new Error('division by zero');
  return a / b;
}
function clamp(n, low, high) {
  if (n < low) return low;
  if (n > high) return high;
  return n;
}
module.exports = { add, divide, clamp };
`,
};
const FORMAT = {
  path: 'src/format.js',
  content: `
const money = (n) => n.toFixed(2);
const percent = (n) => \`\${Math.round(n * 100)}%\`;
module.exports = { money, percent };
`,
};
const MATH_TEST = {
  path: 'src/__tests__/math.test.js',
  content: `
const { add, divide, clamp } = require('../math');
describe('math', () => {
  test('adds', () => { expect(add(1, 2)).toBe(3); });
  test('divides', () => { expect(divide(6, 3)).toBe(2); });
  describe('clamp', () => {
    test('keeps a number in range', () => { expect(clamp(5, 0, 10)).toBe(5); });
  });
});
`,
};
const FORMAT_TEST = {
  path: 'src/format.test.js',
  content: `
const { money } = require('./format');
test('money has two decimals', () => { expect(money(3)).toBe('3.00'); });
`,
};
const FAILING_TEST = {
  path: 'src/failing.test.js',
  content: `
const { add } = require('./math');
test('adds wrongly', () => { expect(add(1, 1)).toBe(3); });
test('throws', () => { throw new TypeError('not a number'); });
test('still adds', () => { expect(add(2, 2)).toBe(4); });
`,
};

async function runJob(job) {
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-run-test-'));
  try {
    const runner = await WarmRunner.start({ workdir });
    return await runner.run(job);
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
}

// What `jest --coverage --ci --json` run cold on the same files reports.
function coldJest(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-cold-jest-'));
  try {
    // The command line needs a package.json (or a config file) to know the project root.
    writeFiles(root, [...files, { path: 'package.json', content: '{}' }]);
    const outputFile = path.join(root, 'report.json');
    // Exits 1 because the files include failing tests.
    spawnSync(process.execPath, [JEST_BIN, '--coverage', '--ci', '--json', `--outputFile=${outputFile}`], {
      cwd: root,
      stdio: 'ignore',
    });
    const report = JSON.parse(fs.readFileSync(outputFile, 'utf8'));
    const summary = createCoverageMap(report.coverageMap).getCoverageSummary();
    return {
      counts: { total: report.numTotalTests, passed: report.numPassedTests, failed: report.numFailedTests },
      coverage: Object.fromEntries(
        ['statements', 'branches', 'functions', 'lines'].map((key) => [key, summary[key].pct]),
      ),
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

test('a passing suite reports every test by name and file', async () => {
  const { result, exit } = await runJob({ files: [MATH, MATH_TEST] });
  assert.equal(result.ok, true);
  assert.equal(exit.code, 0);
  assert.deepEqual(
    { total: result.results.total, passed: result.results.passed, failed: result.results.failed },
    { total: 3, passed: 3, failed: 0 },
  );
  assert.ok(result.results.tests.every((test) => Number.isInteger(test.durationMs) && test.durationMs >= 0));
  assert.deepEqual(
    result.results.tests.map(({ durationMs, ...test }) => test),
    [
      { name: 'math › adds', file: 'src/__tests__/math.test.js', status: 'passed', suite: 'math', title: 'adds' },
      { name: 'math › divides', file: 'src/__tests__/math.test.js', status: 'passed', suite: 'math', title: 'divides' },
      {
        name: 'math › clamp › keeps a number in range',
        file: 'src/__tests__/math.test.js',
        status: 'passed',
        suite: 'math › clamp',
        title: 'keeps a number in range',
      },
    ],
  );
  assert.ok(result.durationMs > 0);
});

test('the coverage report is written to the run folder: lcov, istanbul JSON and HTML', async () => {
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-run-test-'));
  try {
    const runner = await WarmRunner.start({ workdir });
    const { result } = await runner.run({ files: [MATH, MATH_TEST] });
    assert.equal(result.ok, true);
    const report = path.join(workdir, COVERAGE_REPORT_DIR);
    const lcov = fs.readFileSync(path.join(report, 'lcov.info'), 'utf8');
    assert.match(lcov, /^SF:src\/math\.js$/m);
    const count = (field) => Number(new RegExp(`^${field}:(\\d+)$`, 'm').exec(lcov)[1]);
    assert.equal(Math.round((10000 * count('LH')) / count('LF')) / 100, result.results.coverage.lines);
    // divide's zero check and clamp's early returns are never taken.
    assert.ok(count('BRH') > 0 && count('BRH') < count('BRF'), lcov);
    assert.equal(Math.round((10000 * count('BRH')) / count('BRF')) / 100, result.results.coverage.branches);
    const istanbul = JSON.parse(fs.readFileSync(path.join(report, 'coverage-final.json'), 'utf8'));
    assert.ok(Object.keys(istanbul).some((file) => file.endsWith('src/math.js')));
    assert.match(fs.readFileSync(path.join(report, 'lcov-report', 'index.html'), 'utf8'), /math\.js/);
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
});

test('a failing suite reports counts and the first lines of each failure', async () => {
  const { result } = await runJob({ files: [MATH, FAILING_TEST] });
  assert.equal(result.ok, true);
  const { total, passed, failed, tests } = result.results;
  assert.deepEqual({ total, passed, failed }, { total: 3, passed: 1, failed: 2 });
  const [wrong, throws, still] = tests;
  assert.equal(wrong.status, 'failed');
  assert.match(wrong.message, /Expected: 3\nReceived: 2/);
  assert.doesNotMatch(wrong.message, /\n\s+at /, 'the stack trace is left out');
  assert.equal(throws.message, 'TypeError: not a number');
  const { durationMs, ...named } = still;
  assert.deepEqual(named, {
    name: 'still adds',
    file: 'src/failing.test.js',
    status: 'passed',
    suite: '',
    title: 'still adds',
  });
  assert.ok(Number.isInteger(durationMs) && durationMs >= 0, `durationMs: ${durationMs}`);
  assert.equal(still.stack, undefined, 'a passing test has no stack');
  // A failing test keeps its stack for JUnit: the frames in the run's files, by relative path.
  assert.match(wrong.stack, /^at .*\(src\/failing\.test\.js:\d+:\d+\)$/m, wrong.stack);
  assert.doesNotMatch(wrong.stack, /node_modules|\/tmp\//, wrong.stack);
});

test('coverage equals what cold jest --coverage reports on the same files', async () => {
  const files = [MATH, FORMAT, MATH_TEST, FORMAT_TEST, FAILING_TEST];
  const cold = coldJest(files);
  const { result } = await runJob({ files });
  const { total, passed, failed, coverage } = result.results;
  assert.deepEqual({ counts: { total, passed, failed }, coverage }, cold);
  assert.ok(coverage.branches < 100 && coverage.functions < 100, 'the fixture is only partly covered');
});

test('a source file no test loads counts as uncovered', async () => {
  const unused = { path: 'src/unused.js', content: 'module.exports = () => 1;\n' };
  const { result } = await runJob({ files: [MATH, MATH_TEST, unused] });
  const { result: without } = await runJob({ files: [MATH, MATH_TEST] });
  assert.ok(result.results.coverage.functions < without.results.coverage.functions);
});

test('TypeScript sources count for coverage under the shared transform; declaration files do not', async () => {
  const { jestConfigFile } = require('../../src/generate/writing/jest-config');
  const files = [
    { path: 'src/area.ts', content: 'export const area = (w: number, h: number): number => (w < 0 ? 0 : w * h);\n' },
    { path: 'src/unused.ts', content: 'export function never(x: string): string { return x; }\n' },
    { path: 'src/types.d.ts', content: 'export declare function area(w: number, h: number): number;\n' },
    {
      path: 'src/__tests__/area.test.js',
      content: "import { area } from '../area';\ntest('area', () => expect(area(2, 3)).toBe(6));\n",
    },
    jestConfigFile({ esm: true, typescript: true }),
  ];
  const { result } = await runJob({ files });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(result.results.passed, 1);
  assert.deepEqual(result.results.files.map((file) => file.path).sort(), ['src/area.ts', 'src/unused.ts']);
  assert.equal(result.results.files.find((file) => file.path === 'src/unused.ts').coverage.functions, 0);
  assert.ok(result.results.coverage.branches < 100);
});

test('with nothing to cover, coverage is 100', async () => {
  const { result } = await runJob({
    files: [{ path: 'sum.test.js', content: "test('sums', () => expect(1 + 1).toBe(2));" }],
  });
  assert.deepEqual(result.results.coverage, { statements: 100, branches: 100, functions: 100, lines: 100 });
});

test('a suite that fails to load ends the run with suite_load_failed', async () => {
  const broken = {
    path: 'src/broken.test.js',
    content: "const { add } = require('./math');\ntest('adds', () => { expect(add(1, 2)).toBe(3) );\n",
  };
  const missing = { path: 'src/missing.test.js', content: "require('./nowhere');\ntest('never runs', () => {});\n" };
  const { result, exit } = await runJob({ files: [MATH, MATH_TEST, broken, missing] });
  assert.equal(result.ok, false);
  assert.equal(exit.code, 1);
  assert.equal(result.error.code, 'suite_load_failed');
  assert.match(result.error.detail, /src\/broken\.test\.js: .*Missing semicolon/s);
  assert.match(result.error.detail, /src\/missing\.test\.js: .*Cannot find module '\.\/nowhere'/s);
  assert.equal(result.results.passed, 3, 'the suites that loaded still report');
});

test('an invalid job is refused without running anything', async () => {
  const { result, exit } = await runJob({ files: [{ path: '../outside.test.js', content: '' }] });
  assert.deepEqual(result, {
    ok: false,
    error: { code: 'invalid_job', detail: 'files[0].path must not contain "..": ../outside.test.js' },
  });
  assert.equal(exit.code, 1);
});

test('a job without test files is an error', async () => {
  const { result } = await runJob({ files: [MATH] });
  assert.equal(result.error.code, 'no_tests');
});

test('tested code calling process.exit still yields a result line', async () => {
  const exits = { path: 'exits.test.js', content: "test('exits', () => { process.exit(3); });" };
  const { result } = await runJob({ files: [exits] });
  assert.deepEqual(result.error, { code: 'unexpected_exit', detail: 'the run ended early with exit code 3' });
});

test('a result line longer than the pipe holds arrives whole before the runner exits', async () => {
  // About 700 kB of test names: ten times what a pipe holds, as in suites of a few hundred tests.
  const many = {
    path: 'many.test.js',
    content: "for (let i = 0; i < 1500; i++) test(`case ${i} ${'x'.repeat(400)}`, () => {});",
  };
  const { result, exit } = await runJob({ files: [many] });
  assert.ok(result, 'a result line came');
  assert.equal(result.results.passed, 1500);
  assert.equal(result.results.tests.length, 1500);
  assert.equal(exit.code, 0);
});

test('tested code that closes stdout or opens a file in its place ends the run with exit 1, saying why', async () => {
  for (const body of ['fs.closeSync(1);', "fs.closeSync(1); fs.openSync('elsewhere.txt', 'w');"]) {
    const closing = { path: 'closes.test.js', content: `const fs = require('fs'); test('closes', () => { ${body} });` };
    const { result, exit, stderr } = await runJob({ files: [closing] });
    assert.equal(result, null, body);
    assert.equal(exit.code, 1, `${body}\n${stderr}`);
    assert.match(
      stderr.trimEnd().split('\n').pop(),
      /no result line: the tested code closed or replaced the runner's stdout/,
    );
  }
});

test('output of the tested code stays off stdout', async () => {
  const noisy = {
    path: 'noisy.test.js',
    content: "test('prints', () => { process.stdout.write('noise\\n'); console.log('more'); });",
  };
  const { result, stderr } = await runJob({ files: [noisy] });
  assert.equal(result.ok, true, 'stdout held only the ready and result lines');
  assert.match(stderr, /noise/);
});

test('dependencies resolve from nodePath', async () => {
  const deps = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-deps-'));
  try {
    writeFiles(deps, [
      { path: 'node_modules/left-pad/index.js', content: 'module.exports = (s, n) => String(s).padStart(n, "0");' },
    ]);
    const id = {
      path: 'id.js',
      content: "const pad = require('left-pad');\nmodule.exports = (n) => `id-${pad(n, 4)}`;\n",
    };
    const idTest = {
      path: 'id.test.js',
      content: "const id = require('./id');\ntest('pads', () => expect(id(7)).toBe('id-0007'));\n",
    };
    const { result } = await runJob({ files: [id, idTest], nodePath: path.join(deps, 'node_modules') });
    assert.equal(result.results.passed, 1, JSON.stringify(result));
  } finally {
    fs.rmSync(deps, { recursive: true, force: true });
  }
});

test('a jest.config.js among the files is honoured', async () => {
  const config = { path: 'jest.config.js', content: "module.exports = { testMatch: ['**/*.check.js'] };\n" };
  const check = {
    path: 'math.check.js',
    content: "const { add } = require('./src/math');\ntest('adds', () => expect(add(2, 3)).toBe(5));\n",
  };
  const { result } = await runJob({ files: [MATH, MATH_TEST, check, config] });
  assert.deepEqual(
    result.results.tests.map(({ durationMs, ...test }) => test),
    [{ name: 'adds', file: 'math.check.js', status: 'passed', suite: '', title: 'adds' }],
  );
});

test("ES modules run through a babel.config.js naming the runner's Babel plugin", async () => {
  const babel = {
    path: 'babel.config.js',
    content: "module.exports = { plugins: ['@babel/plugin-transform-modules-commonjs'] };\n",
  };
  const source = { path: 'sign.js', content: 'export default function sign(n) { return n < 0 ? -1 : 1; }\n' };
  const signTest = {
    path: 'sign.test.js',
    content: "import sign from './sign';\ntest('negative', () => expect(sign(-4)).toBe(-1));\n",
  };
  const { result } = await runJob({ files: [babel, source, signTest] });
  assert.equal(result.results.passed, 1, JSON.stringify(result));
  assert.equal(result.results.coverage.branches, 50);
});

test('testTimeoutMs bounds each test', async () => {
  const hangs = { path: 'hangs.test.js', content: "test('never settles', () => new Promise(() => {}));" };
  const { result } = await runJob({ files: [hangs], testTimeoutMs: 300 });
  assert.equal(result.results.failed, 1);
  assert.match(result.results.tests[0].message, /Exceeded timeout of 300 ms/);
  assert.equal(typeof result.results.tests[0].stack, 'string');
});

test('wallMs bounds the whole run', async () => {
  const hangs = { path: 'hangs.test.js', content: "test('never settles', () => new Promise(() => {}));" };
  const { result } = await runJob({ files: [hangs], testTimeoutMs: 60000, wallMs: 500 });
  assert.deepEqual(result.error, {
    code: 'wall_time_limit',
    detail: 'wall time limit exceeded: the run took longer than 500 ms',
  });
});
