'use strict';
// The measuring half of bench/generate_bench.sh (which installs the packages and tools first).
// Env: ROOT (the repository), WORK (the bench's folder), BUDGET_MS, MUTATE (package names),
// RERUNS (how many times the kept suite runs, each like a run: default 5), WALL_LIMIT_MS (the
// generator's wall limit, default its own).
// Arguments: package specs as given to npm (`lru-cache@6`), each optionally followed by
// `:path`, a module of the package to take instead of its main one (`semver@7.6.3:functions/inc.js`).

const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { moduleFiles } = require('./npm_module_files.js');

const root = process.env.ROOT;
const runner = path.join(root, 'runner');
const work = process.env.WORK;
const budget = Number(process.env.BUDGET_MS);
const reruns = Number(process.env.RERUNS || 5);
const mutate = new Set((process.env.MUTATE || '').split(/\s+/).filter(Boolean));
const packagesDir = path.join(work, 'packages', 'node_modules');
const toolsDir = path.join(work, 'tools', 'node_modules');
const jestBin = require.resolve('jest/bin/jest', { paths: [runner] });

function writeFiles(dir, files) {
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, file.path), file.content);
  }
}

function median(values) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// node_modules of a run folder: the installed packages (a package's own dependencies, such as
// yallist for lru-cache) and, for Stryker, the tools. Links, so nothing is copied.
function linkNodeModules(dir, sources) {
  const target = path.join(dir, 'node_modules');
  fs.mkdirSync(target, { recursive: true });
  for (const source of sources) {
    if (!fs.existsSync(source)) continue;
    for (const name of fs.readdirSync(source)) {
      if (name.startsWith('.') || fs.existsSync(path.join(target, name))) continue;
      fs.symlinkSync(path.join(source, name), path.join(target, name));
    }
  }
}

// The installed packages are the job's dependencies (nodePath), as the server's dependency cache
// would give them: a package's own dependencies (yallist for lru-cache) resolve at generation.
function generate(files) {
  const wallLimitMs = process.env.WALL_LIMIT_MS ? { wallLimitMs: Number(process.env.WALL_LIMIT_MS) } : {};
  const job = JSON.stringify({ files, framework: 'jest', threshold: 80, timeBudgetMs: budget, nodePath: packagesDir, ...wallLimitMs });
  const started = Date.now();
  const generated = spawnSync(process.execPath, [path.join(runner, 'bin', 'generate.js')], { input: job, maxBuffer: 64 << 20 });
  const seconds = (Date.now() - started) / 1000;
  const result = JSON.parse(generated.stdout.toString());
  if (result.error) throw new Error(result.error);
  // Where the time went: the search's and the phases' log lines.
  const log = String(generated.stderr).split('\n').filter((l) => /^generate: (search|phases|mutants)/.test(l));
  return { result, seconds, log };
}

// Jest over sources and tests, with coverage over every source, as a run counts it. No
// --forceExit: a suite whose timers fire after its last test fails the run, as it would a run.
function jestCoverage(dir, name) {
  const resultsFile = path.join(work, 'runs', `${name}.results.json`);
  const coverageDir = path.join(work, 'runs', `${name}.coverage`);
  const jest = spawnSync(process.execPath, [jestBin, '--ci', '--json', `--outputFile=${resultsFile}`,
    '--coverage', '--coverageReporters=json-summary', `--coverageDirectory=${coverageDir}`, '--runInBand', '--silent',
    '--collectCoverageFrom=**/*.{js,mjs,cjs}', '--collectCoverageFrom=!**/node_modules/**', '--collectCoverageFrom=!**/jest.config.js'],
  { cwd: dir, env: { ...process.env, NODE_PATH: path.join(runner, 'node_modules') }, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120000 });
  const results = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : null;
  const summaryFile = path.join(coverageDir, 'coverage-summary.json');
  const summary = fs.existsSync(summaryFile) ? JSON.parse(fs.readFileSync(summaryFile, 'utf8')).total : null;
  const failing = results ? results.numFailedTests + results.numRuntimeErrorTestSuites : NaN;
  return { summary, failing, exitCode: jest.status, stderr: String(jest.stderr || '').slice(-1500) };
}

// Stryker's time cap. A run's time grows with its mutants: at concurrency 1 each costs Jest's
// start (about a second, the dry run's "overhead") plus its covering tests, and a timed-out one a
// restart of the test runner (qs@6.13.0: 1281 mutants, 31-33 minutes at load 7-25, past a fixed 15).
// So the cap is STRYKER_TIMEOUT_MIN minutes (default 15) until Stryker says how many mutants it
// made, then STRYKER_SECONDS_PER_MUTANT (default 2) for each if that is more, never more than
// STRYKER_MAX_MIN minutes (default 60): every run stays bounded.
const baseCapMs = Number(process.env.STRYKER_TIMEOUT_MIN || 15) * 60000;
const secondsPerMutant = Number(process.env.STRYKER_SECONDS_PER_MUTANT || 2);
const maxCapMs = Math.max(baseCapMs, Number(process.env.STRYKER_MAX_MIN || 60) * 60000);
function capFor(mutants) {
  return Math.min(maxCapMs, Math.max(baseCapMs, mutants * secondsPerMutant * 1000));
}

// Runs Stryker in `dir` under the cap (capFor), its output also in `dir`/stryker.log (progress as
// it goes). Resolves { status, output, capMs }: status 143 when the cap stopped it.
function runStryker(dir) {
  const log = fs.openSync(path.join(dir, 'stryker.log'), 'w');
  const child = spawn(process.execPath, [path.join(toolsDir, '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run', 'stryker.config.json'],
    { cwd: dir, env: { ...process.env, NODE_PATH: path.join(runner, 'node_modules') }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let capMs = baseCapMs;
  let capped = false;
  const started = Date.now();
  const stop = () => {
    capped = true;
    try {
      process.kill(-child.pid, 'SIGTERM'); // Stryker and its test runners
    } catch {
      // already gone
    }
  };
  let timer = setTimeout(stop, capMs);
  const take = (chunk) => {
    fs.writeSync(log, chunk);
    output = (output + chunk).slice(-20000);
    const made = /Instrumented \d+ source file\(s\) with (\d+) mutant/.exec(output);
    if (made && capMs === baseCapMs && capFor(Number(made[1])) !== capMs) {
      capMs = capFor(Number(made[1]));
      clearTimeout(timer);
      timer = setTimeout(stop, Math.max(0, started + capMs - Date.now()));
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      fs.closeSync(log);
      resolve({ status: capped ? 143 : code, output, capMs });
    });
  });
}

// Stryker's mutation score (killed and timed-out mutants over all valid ones) of the generated
// suite, mutating only the package's files.
async function mutationScore(dir, name) {
  const reportFile = path.join(dir, 'mutation.json');
  const config = {
    testRunner: 'jest',
    mutate: [`${name}/**/*.{js,cjs,mjs}`, `!${name}/**/__tests__/**`],
    jest: { projectType: 'custom', configFile: 'jest.config.js', enableFindRelatedTests: false },
    coverageAnalysis: 'perTest',
    reporters: ['json', 'progress-append-only'],
    jsonReporter: { fileName: reportFile },
    concurrency: Number(process.env.STRYKER_CONCURRENCY || 1),
    timeoutMS: 5000,
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
  };
  fs.writeFileSync(path.join(dir, 'stryker.config.json'), JSON.stringify(config, null, 2));
  const started = Date.now();
  const stryker = await runStryker(dir);
  const seconds = (Date.now() - started) / 1000;
  if (!fs.existsSync(reportFile)) {
    process.stderr.write(`${name}: stryker produced no report (exit ${stryker.status}, cap ${stryker.capMs / 60000} min): ${stryker.output.slice(-3000)}\n`);
    return null;
  }
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  const counts = {};
  for (const file of Object.values(report.files)) for (const mutant of file.mutants) counts[mutant.status] = (counts[mutant.status] || 0) + 1;
  const detected = (counts.Killed || 0) + (counts.Timeout || 0);
  const undetected = (counts.Survived || 0) + (counts.NoCoverage || 0);
  return { score: detected + undetected ? Math.round((1000 * detected) / (detected + undetected)) / 10 : NaN, detected, undetected, seconds, timeouts: counts.Timeout || 0 };
}

async function main() {
  const rows = [];
  for (const spec of process.argv.slice(2)) {
    const [packageSpec, modulePath] = spec.split(':');
    const name = packageSpec.replace(/(.)@.*$/, '$1');
    const files = moduleFiles(packagesDir, name, modulePath);
    const { result, seconds, log } = generate(files);
    for (const l of log) process.stderr.write(`${name}: ${l}\n`);
    const dir = path.join(work, 'runs', name);
    writeFiles(dir, [...files, ...result.files]);
    linkNodeModules(dir, [packagesDir]);
    const jest = result.files.length ? jestCoverage(dir, name) : { summary: null, failing: 0, exitCode: 0 };
    if (jest.exitCode !== 0 && jest.failing === 0) jest.failing = NaN;
    if (jest.exitCode !== 0) process.stderr.write(`${name}: jest exited ${jest.exitCode}: ${jest.stderr}\n`);
    // The kept suite again, RERUNS times in all, each like a run: every one must pass.
    let clean = 0;
    for (let run = 1; run <= reruns && result.files.length; run++) {
      const again = run === 1 ? jest : jestCoverage(dir, `${name}.run${run}`);
      if (again.exitCode === 0 && again.failing === 0) clean++;
      else if (run > 1) process.stderr.write(`${name}: run ${run} of the kept suite failed (exit ${again.exitCode}, ${again.failing} failing): ${again.stderr}\n`);
    }
    const pct = (metric) => (jest.summary ? jest.summary[metric].pct : 0);
    const row = {
      module: name, statements: pct('statements'), branches: pct('branches'), functions: pct('functions'), lines: pct('lines'),
      kept: result.summary.testsKept, generated: result.summary.testsGenerated, failing: jest.failing, seconds,
      passedRuns: result.files.length ? `${clean}/${reruns}` : '-',
      stated: result.summary.coverage.statements, problems: result.summary.problems, mutation: null,
    };
    if (mutate.has(name) && result.files.length) {
      linkNodeModules(dir, [toolsDir]);
      row.mutation = await mutationScore(dir, name);
    }
    rows.push(row);
    process.stderr.write(`${name}: generated in ${seconds}s, ${row.kept}/${row.generated} kept${row.mutation ? `, mutation score ${row.mutation.score}% in ${row.mutation.seconds}s (${row.mutation.timeouts} timed out)` : ''}\n`);
    for (const problem of row.problems) process.stderr.write(`  problem ${problem.path}: ${problem.code} ${problem.message}\n`);
  }

  const header = ['module', 'stmts %', 'branch %', 'funcs %', 'lines %', 'kept', 'failing', 'runs ok', 'gen s', 'mutation %'];
  const line = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(i ? 8 : 12)).join(' | ')} |`;
  console.log(line(header));
  console.log(line(header.map((h, i) => '-'.repeat(i ? 8 : 12))));
  const mutationCell = (row) => (row.mutation ? `${row.mutation.score} (${row.mutation.detected}/${row.mutation.detected + row.mutation.undetected})` : '-');
  for (const row of rows) {
    console.log(line([row.module, row.statements, row.branches, row.functions, row.lines, row.kept, row.failing, row.passedRuns, row.seconds.toFixed(1), mutationCell(row)]));
  }
  const medianOf = (key) => median(rows.map((row) => row[key]));
  const mutationMedian = median(rows.filter((row) => row.mutation).map((row) => row.mutation.score));
  console.log(line(['median', medianOf('statements'), medianOf('branches'), medianOf('functions'), medianOf('lines'), medianOf('kept'),
    medianOf('failing'), `${rows.filter((row) => row.passedRuns === '-' || row.passedRuns === `${reruns}/${reruns}`).length}/${rows.length} all`, medianOf('seconds').toFixed(1), Number.isNaN(mutationMedian) ? '-' : mutationMedian]));
  const mismatched = rows.filter((row) => Math.abs(row.stated - row.statements) > 0.5);
  const weak = rows.filter((row) => row.mutation && row.statements >= 90 && row.mutation.score < 50);
  if (rows.some((row) => row.mutation)) {
    console.log(`modules with >= 90% statements and a mutation score under 50%: ${weak.length ? weak.map((row) => `${row.module} (${row.mutation.score}%)`).join(', ') : 'none'}`);
  }
  if (mismatched.length) console.log(`stated coverage differs from measured for: ${mismatched.map((row) => `${row.module} (${row.stated} stated)`).join(', ')}`);
}

main();
