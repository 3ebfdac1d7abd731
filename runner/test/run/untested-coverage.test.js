'use strict';

// The coverage of the sources no test loads (src/run/untested-coverage.js):
// computed a few at a time, within the run's memory limit, and kept for the
// next runs of the same cache.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { WarmRunner } = require('../../src/run/client');
const { SANDBOX } = require('../../src/run/sandbox-launcher');
const { COVERAGE_REPORT_DIR } = require('../../src/run/jest-argv');
const { READINGS_FOLDER } = require('../../src/run/untested-coverage');

const probe = JSON.parse(spawnSync(SANDBOX, ['--probe'], { encoding: 'utf8' }).stdout);
// As in hostile.test.js: fails where the sandbox cannot be set up, unless
// VOUCH_ALLOW_WEAK_SANDBOX=1 says to skip it, knowingly.
const needsBubblewrap =
  probe.isolation !== 'bubblewrap' &&
  process.env.VOUCH_ALLOW_WEAK_SANDBOX === '1' &&
  'needs bubblewrap (skipped: VOUCH_ALLOW_WEAK_SANDBOX=1)';

const TESTED = { path: 'a.js', content: 'module.exports = (x) => x + 1;\n' };
const TEST_FILE = {
  path: '__tests__/a.test.js',
  content: "test('adds one', () => { expect(require('../a')(1)).toBe(2); });\n",
};

// `count` sources no test loads, each of `functions` small functions with a branch.
function untestedSources(count, functions) {
  return Array.from({ length: count }, (_, index) => {
    let body = "'use strict';\n";
    for (let f = 0; f < functions; f++) {
      body += `function f${f}(a, b) {\n  if (a > ${f}) return a * b + ${f};\n`;
      body += `  return [a, b, ${f}].map((v) => (v ? v * 2 : -v)).reduce((s, v) => s + v, 0);\n}\n`;
    }
    return { path: `lib/m${index}/index.js`, content: `${body}module.exports = { f0 };\n` };
  });
}

// A folder outside /tmp (the sandbox has a /tmp of its own); removed after the test.
function workFolder(t) {
  const base = fs.mkdtempSync('/var/tmp/vouch-untested-coverage-');
  fs.chmodSync(base, 0o755);
  t.after(() => fs.rmSync(base, { recursive: true, force: true }));
  const dir = path.join(base, 'run');
  fs.mkdirSync(dir);
  return dir;
}

// Jest started the coverage of every untested source at once: with 40 sources
// of 10 functions, the run took 350 MB resident and was aborted for lack of
// memory at a 400 MiB limit. A few at a time, it took 280 MB. With 200 such
// sources, a few at a time, the run still met the 384 MiB limit (SIGSEGV):
// V8, sizing its heap by the machine's memory, let the garbage of instrumenting
// them pile up (a date-fns suite met the run path's 1 GiB so). With the heap
// vouch-sandbox gives Node.js below the limit (process/sandbox/node_heap.hpp),
// it peaked at 254 MB.
test('many untested sources are covered within a small memory limit', { skip: needsBubblewrap }, async (t) => {
  const workdir = workFolder(t);
  const untested = untestedSources(200, 10);
  const runner = await WarmRunner.start({
    workdir,
    sandboxOptions: ['--cpu-seconds', '300', '--memory-mb', '384', '--wall-ms', '300000'],
    runArgs: ['--prime-rounds', '0'],
  });
  const outcome = await runner.run({ files: [TESTED, TEST_FILE, ...untested], wallMs: 290000 });
  assert.equal(outcome.result?.ok, true, `${JSON.stringify(outcome.sandbox)}\n${outcome.stderr.slice(-2000)}`);
  assert.equal(outcome.result.results.passed, 1);
  const coveredFiles = outcome.result.results.files.map((file) => file.path);
  for (const source of untested) assert.ok(coveredFiles.includes(source.path), source.path);
});

// The statements of `file` in the run's istanbul report.
function statementsOf(workdir, file) {
  const report = JSON.parse(fs.readFileSync(path.join(workdir, COVERAGE_REPORT_DIR, 'coverage-final.json'), 'utf8'));
  const entry = Object.entries(report).find(([name]) => name.endsWith(file));
  return Object.keys(entry[1].statementMap).length;
}

test("each untested source's reading is kept in Jest's cache, and the next run uses it", async (t) => {
  const workdir = workFolder(t);
  const untested = untestedSources(3, 2);
  const job = { files: [TESTED, TEST_FILE, ...untested] };
  const first = await (await WarmRunner.start({ workdir, runArgs: ['--prime-rounds', '0'] })).run(job);
  assert.equal(first.result?.ok, true, first.stderr);
  const folder = path.join(workdir, '.jest-cache', READINGS_FOLDER);
  const readings = fs
    .readdirSync(folder)
    .flatMap((part) => fs.readdirSync(path.join(folder, part)).map((name) => path.join(folder, part, name)));
  assert.equal(readings.length, untested.length);
  const statements = statementsOf(workdir, 'lib/m0/index.js');
  assert.ok(statements > 0);

  // The next run reads the kept reading instead of parsing the instrumented code again: a
  // reading changed in the cache shows in its report.
  const m0 = readings.find((file) => fs.readFileSync(file, 'utf8').includes('lib/m0/index.js'));
  const reading = JSON.parse(fs.readFileSync(m0, 'utf8'));
  const [firstStatement] = Object.keys(reading.coverageData.statementMap);
  delete reading.coverageData.statementMap[firstStatement];
  delete reading.coverageData.s[firstStatement];
  fs.writeFileSync(m0, JSON.stringify(reading));
  // The next run in a fresh folder at the same path, with the cache lent, as the server and
  // verification's lanes do.
  const kept = `${workdir}.cache`;
  fs.renameSync(path.join(workdir, '.jest-cache'), kept);
  fs.rmSync(workdir, { recursive: true });
  fs.mkdirSync(workdir);
  fs.renameSync(kept, path.join(workdir, '.jest-cache'));
  const second = await (await WarmRunner.start({ workdir, runArgs: ['--prime-rounds', '0'] })).run(job);
  assert.equal(second.result?.ok, true, JSON.stringify(second.result) + second.stderr);
  assert.equal(statementsOf(workdir, 'lib/m0/index.js'), statements - 1);
});
