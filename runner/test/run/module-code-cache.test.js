'use strict';

// V8's code cache of the runner's modules (src/run/module-code-cache.js):
// written by a primed runner before it is ready, read by unprimed ones.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');
const { spawnSync } = require('node:child_process');
const { WarmRunner } = require('../../src/run/client');

const RUNNER_DIR = path.resolve(__dirname, '..', '..');
const SRC = path.join(RUNNER_DIR, 'src', 'run');

const MATH = {
  path: 'src/math.js',
  content:
    'function clamp(n, low, high) { return n < low ? low : n > high ? high : n; }\nmodule.exports = { clamp };\n',
};
const MATH_TEST = {
  path: 'src/math.test.js',
  content: `const { clamp } = require('./math');
test('clamps below', () => { expect(clamp(-1, 0, 9)).toBe(0); });
test('clamps above', () => { expect(clamp(10, 0, 9)).toBe(9); });
test('fails', () => { expect(clamp(5, 0, 9)).toEqual(6); });
`,
};

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-code-cache-test-'));
}

// A cache written the way the server has it written: by a primed runner, in
// its folder, before it is ready. Returns the cache file's path (in `dir`).
async function writtenCache(dir) {
  const workdir = tempDir();
  try {
    const runner = await WarmRunner.start({
      workdir,
      runArgs: ['--prime-rounds', '1', '--save-code-cache', '.vouch-code-cache'],
    });
    const file = path.join(dir, 'code-cache');
    fs.copyFileSync(path.join(workdir, '.vouch-code-cache'), file);
    const { result } = await runner.run({ files: [MATH, MATH_TEST] });
    assert.equal(result.ok, true, JSON.stringify(result));
    return file;
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
}

// What loading Jest's main parts in a fresh process, under the flags of an
// unprimed runner (src/run/tiering.js), took from `cacheFile`.
function useWhenLoadingJest(cacheFile) {
  const script = `
    require(${JSON.stringify(path.join(SRC, 'tiering.js'))}).chooseTiering({ primeRounds: 0 });
    const cache = require(${JSON.stringify(path.join(SRC, 'module-code-cache.js'))});
    cache.useModuleCodeCache({ codeCache: process.argv[1], saveCodeCache: null });
    for (const name of ['jest', 'jest-config', 'jest-runtime', 'jest-circus/runner', 'expect']) require(name);
    console.log(JSON.stringify(cache.moduleCodeCacheUse()));
  `;
  const done = spawnSync(process.execPath, ['-e', script, cacheFile], { cwd: RUNNER_DIR, encoding: 'utf8' });
  assert.equal(done.status, 0, done.stderr);
  return JSON.parse(done.stdout);
}

async function runUnprimed(job, runArgs) {
  const workdir = tempDir();
  try {
    const runner = await WarmRunner.start({ workdir, runArgs: ['--prime-rounds', '0', ...runArgs] });
    return await runner.run(job);
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
}

test('a primed runner writes the cache of its own modules before it is ready', async (t) => {
  const dir = tempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const cache = v8.deserialize(fs.readFileSync(await writtenCache(dir)));
  assert.equal(cache.node, process.version);
  const files = [...cache.modules.keys()];
  assert.ok(files.length > 100, `${files.length} modules`);
  assert.ok(
    files.every((file) => file.startsWith(RUNNER_DIR + path.sep)),
    "only the runner's own modules",
  );
  assert.ok(files.some((file) => file.includes(`${path.sep}@jest${path.sep}core${path.sep}`)));
  for (const { sha1, data } of cache.modules.values()) {
    assert.match(sha1, /^[0-9a-f]{40}$/);
    assert.ok(data.length > 0);
  }
  // Where the modules' requires resolved: only inside the runner's folder.
  assert.ok(cache.resolutions.size > 100, `${cache.resolutions.size} resolutions`);
  for (const [key, filename] of cache.resolutions) {
    const [folder, request] = key.split('\0');
    assert.ok(folder.startsWith(RUNNER_DIR + path.sep), key);
    assert.ok(!path.isAbsolute(request), key);
    assert.ok(filename.startsWith(RUNNER_DIR + path.sep), filename);
  }
});

test('an unprimed runner compiles Jest from it: V8 accepts it under the unprimed flags', async (t) => {
  const dir = tempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const use = useWhenLoadingJest(await writtenCache(dir));
  assert.ok(use.fromCache > 30, JSON.stringify(use));
  assert.equal(use.rejected, 0);
  assert.equal(use.stale, 0);
  assert.ok(use.resolved > 30, JSON.stringify(use));
});

test('a run from the cache reports what a run without it reports', async (t) => {
  const dir = tempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = await writtenCache(dir);
  const job = { files: [MATH, MATH_TEST] };
  const [cached, plain] = [await runUnprimed(job, ['--code-cache', file]), await runUnprimed(job, [])];
  assert.equal(cached.result.ok, true, JSON.stringify(cached.result));
  // Durations are the only figures that may differ between the two runs.
  const timeless = ({ durationMs, results, ...rest }) => ({
    ...rest,
    results: { ...results, tests: results.tests.map(({ durationMs: ms, ...test }) => test) },
  });
  const [withCache, without] = [timeless(cached.result), timeless(plain.result)];
  assert.deepEqual(withCache, without);
  assert.equal(withCache.results.failed, 1);
});

test('an entry for other content, a cache of another install, or a file that is no cache, is not used', async (t) => {
  const dir = tempDir();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = await writtenCache(dir);
  const cache = v8.deserialize(fs.readFileSync(file));

  const otherInstall = path.join(dir, 'other-install');
  fs.writeFileSync(otherInstall, v8.serialize({ ...cache, install: `${cache.install}0` }));
  assert.deepEqual(useWhenLoadingJest(otherInstall), { fromCache: 0, rejected: 0, stale: 0, resolved: 0 });

  for (const entry of cache.modules.values()) {
    entry.sha1 = '0'.repeat(40);
    entry.data = Buffer.alloc(entry.data.length, 7); // same length, not V8's
  }
  fs.writeFileSync(file, v8.serialize(cache));
  const use = useWhenLoadingJest(file);
  assert.equal(use.fromCache, 0);
  assert.ok(use.stale > 30, JSON.stringify(use));
  assert.ok(use.resolved > 30, JSON.stringify(use));

  const garbage = path.join(dir, 'garbage');
  fs.writeFileSync(garbage, 'not a code cache');
  const { result } = await runUnprimed({ files: [MATH, MATH_TEST] }, ['--code-cache', garbage]);
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(result.results.passed, 2);
});

test('run.js refuses arguments it does not know and a cache written without a warm-up', async () => {
  for (const [runArgs, detail] of [
    [['--prime-rounds', '0', '--code-cahce', 'x'], /does not know the argument "--code-cahce"/],
    [['--prime-rounds', '0', '--save-code-cache', 'x'], /--save-code-cache needs --prime-rounds of at least 1/],
    [['--prime-rounds', '9'], /--prime-rounds must be an integer from 0 to 4/],
    [['--code-cache'], /--code-cache needs a value/],
  ]) {
    const workdir = tempDir();
    try {
      await assert.rejects(WarmRunner.start({ workdir, runArgs }), (error) => {
        const said = JSON.parse(/^runner not ready: (\{.*\}), exit/.exec(error.message)[1]);
        assert.equal(said.error.code, 'runner_start_failed');
        assert.match(said.error.detail, detail);
        return true;
      });
    } finally {
      fs.rmSync(workdir, { recursive: true, force: true });
    }
  }
});
