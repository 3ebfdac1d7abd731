'use strict';
// `vouch` end to end against the live vouchd: a small package in a temporary git repository,
// `vouch ci` writes the tests, coverage/lcov.info and junit.xml, and exits by the coverage bar.
const { describe, it, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Vouch } = require('..');
const { BASE_URL, admin } = require('./support');
const { writeGeneratedFiles } = require('../dist/cli/written');

const CLI = path.resolve(__dirname, '..', 'dist', 'cli', 'main.js');
const XSD = path.resolve(__dirname, '..', '..', '..', 'tests', 'junit', 'junit-10.xsd');

// `unused` is never exported, so no test reaches its lines: coverage stays under 100%.
const MATH = `function unused(x) {
  return x * 42;
}
exports.clamp = (n, lo, hi) => {
  if (n < lo) return lo;
  if (n > hi) return hi;
  return n;
};
exports.sign = (n) => (n === 0 ? 0 : n > 0 ? 1 : -1);
`;

/** Runs the CLI in `cwd` as a pipeline would (CI set, no terminal); resolves with its exit and output. */
function vouch(args, { cwd, key, env = {} }) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { PATH: process.env.PATH, CI: 'true', VOUCH_URL: BASE_URL, VOUCH_API_KEY: key, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const git = (cwd, ...args) =>
  execFileSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd, stdio: 'pipe' });

describe('the vouch command', () => {
  let repo;
  let key;
  let projectId;

  before(async () => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-cli-'));
    fs.mkdirSync(path.join(repo, 'src'));
    fs.mkdirSync(path.join(repo, 'notes'));
    fs.mkdirSync(path.join(repo, 'node_modules', 'left-pad'), { recursive: true });
    fs.writeFileSync(
      path.join(repo, 'package.json'),
      JSON.stringify({ name: 'tiny-math', version: '1.0.0', main: 'src/math.js', files: ['src'] }, null, 2),
    );
    fs.writeFileSync(path.join(repo, 'src', 'math.js'), MATH);
    fs.writeFileSync(path.join(repo, 'notes', 'todo.txt'), 'not in `files`: never uploaded\n');
    fs.writeFileSync(path.join(repo, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
    fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules/\ncoverage/\njunit.xml\n');
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'tiny-math');
    const issued = await admin().keys.create({
      account: `cli-${randomBytes(6).toString('hex')}`,
      plan: 'enterprise',
      scopes: ['projects:read', 'projects:write', 'tests:read', 'tests:write'],
    });
    key = issued.key;
    // The team's project, judged by the bar alone (no project threshold): `--create` finds it.
    const project = await new Vouch({ baseUrl: BASE_URL, apiKey: key }).projects.create({
      name: 'tiny-math',
      config: { coverage: { threshold: 0 } },
    });
    projectId = project.id;
  });

  after(() => fs.rmSync(repo, { recursive: true, force: true }));

  it('ci writes the tests, lcov and JUnit, and exits 1 under a bar that is too high, 0 under one that is met', async () => {
    const first = await vouch(['ci', '--create', 'tiny-math', '--fail-under', '100'], { cwd: repo, key });
    assert.equal(first.code, 1, `${first.stdout}\n${first.stderr}`);
    // The ids it created and used, for the pipeline's log.
    assert.match(first.stdout, new RegExp(`^project ${projectId} \\(tiny-math, existing\\)$`, 'm'));
    assert.match(first.stdout, /^snapshot \S+: 2 files, \d+ bytes$/m);
    const testId = first.stdout.match(/^test (tst_\S+)$/m)?.[1];
    assert.ok(testId, first.stdout);
    assert.match(first.stdout, /^run run_\S+$/m);
    assert.match(first.stdout, /^File\s+Tests kept\s+Coverage\s+Skipped$/m);
    assert.match(first.stdout, /^outcome success$/m);
    assert.match(first.stdout, /^coverage bar 100%: lines [\d.]+% is under it$/m);
    // Progress as plain lines (CI is set): the generation's phases.
    assert.match(first.stderr, new RegExp(`^generating ${testId}: queued$`, 'm'));
    assert.match(
      first.stderr,
      new RegExp(`^generating ${testId}: (loading|searching|shrinking|mutating|verifying|writing)`, 'm'),
    );

    const written = path.join(repo, 'src', '__tests__', 'math.test.js');
    assert.match(fs.readFileSync(written, 'utf8'), /expect\(/);
    assert.match(fs.readFileSync(path.join(repo, 'coverage', 'lcov.info'), 'utf8'), /^SF:src\/math\.js$/m);
    const junit = fs.readFileSync(path.join(repo, 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuite name="src\/__tests__\/math\.test\.js"/);
    // The schema Jenkins validates JUnit reports with.
    execFileSync('xmllint', ['--noout', '--schema', XSD, path.join(repo, 'junit.xml')], { stdio: 'pipe' });
    assert.ok(fs.existsSync(path.join(repo, '.vouch-tests.json')));

    // The reviewer edits the generated test: the next ci keeps the edit (no --force).
    const edited = `${fs.readFileSync(written, 'utf8')}\n// reviewed\n`;
    fs.writeFileSync(written, edited);
    const second = await vouch(['ci', '--project', projectId, '--fail-under', '10', '--json'], { cwd: repo, key });
    assert.equal(second.code, 0, `${second.stdout}\n${second.stderr}`);
    const report = JSON.parse(second.stdout);
    assert.equal(report.exitCode, 0);
    assert.equal(report.project.id, projectId);
    // What vouch wrote is an output: the second import packed the sources only.
    assert.deepEqual(report.snapshot.packed, ['package.json', 'src/math.js']);
    assert.equal(report.failUnder.met, true);
    assert.equal(report.run.outcome, 'success');
    assert.deepEqual(
      report.written.find((file) => file.path === 'src/__tests__/math.test.js'),
      { path: 'src/__tests__/math.test.js', status: 'kept' },
    );
    assert.equal(fs.readFileSync(written, 'utf8'), edited);
    assert.equal(report.reports.junit, 'junit.xml');
    assert.equal(second.stderr.includes('generating'), false, 'no progress with --json');
  });

  it('exits 2 on a usage error and 3 when the service refuses', async () => {
    const usage = await vouch(['run'], { cwd: repo, key });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--test ID is required/);
    const unknown = await vouch(['generate', '--project', 'prj_nope'], { cwd: repo, key });
    assert.equal(unknown.code, 3, unknown.stderr);
    assert.match(unknown.stderr, /404 not_found/);
    const wrongKey = await vouch(['import', '--create', 'x'], { cwd: repo, key: 'vk_wrong' });
    assert.equal(wrongKey.code, 3);
    const created = await vouch(['import', '--create', 'another'], { cwd: repo, key });
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stdout, /^project prj_\S+ \(another, created\)$/m);
    assert.match(created.stdout, /^snapshot \S+: \d+ files, \d+ bytes$/m);
  });
});

describe('writing generated files', () => {
  it('replaces only what it wrote and nobody changed since', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-written-'));
    try {
      // The status of each file written.
      const write = (files, options) => writeGeneratedFiles(dir, files, options).map((f) => f.status);
      const testFile = (content) => ({ path: 'a/t.test.js', content });
      const config = { path: 'jest.config.js', content: 'cfg' };
      assert.deepEqual(write([testFile('one'), config], { testId: 'tst_1' }), ['written', 'written']);
      // unchanged on disk: replaced; the same content: unchanged
      assert.deepEqual(write([testFile('two'), config], { testId: 'tst_2' }), ['updated', 'unchanged']);
      assert.equal(fs.readFileSync(path.join(dir, 'a/t.test.js'), 'utf8'), 'two');
      // changed by its user: kept, unless forced
      fs.writeFileSync(path.join(dir, 'a/t.test.js'), 'mine');
      assert.deepEqual(write([testFile('three')], { testId: 'tst_3' }), ['kept']);
      assert.equal(fs.readFileSync(path.join(dir, 'a/t.test.js'), 'utf8'), 'mine');
      assert.deepEqual(write([testFile('three')], { testId: 'tst_3', force: true }), ['overwritten']);
      // a file vouch never wrote is the user's
      fs.writeFileSync(path.join(dir, 'own.test.js'), 'theirs');
      assert.deepEqual(write([{ path: 'own.test.js', content: 'ours' }], { testId: 'tst_4' }), ['kept']);
      assert.throws(
        () => writeGeneratedFiles(dir, [{ path: '../escape.js', content: 'x' }], { testId: 'tst_5' }),
        /would leave/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
