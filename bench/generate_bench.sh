#!/usr/bin/env bash
# Measures test generation on small, popular CommonJS packages from the npm registry.
# For each package: submit its main module (and the files it requires relatively) to
# runner/bin/generate.js, write the returned tests beside the sources, run Jest with coverage
# the way the run side does (coverage over every submitted source file), and print coverage,
# kept and failing tests, and generation time.
#
# Usage: bench/generate_bench.sh [package ...]     (default: the list below)
# Env:   BUDGET_MS   time budget per package job (default 20000)
#        KEEP_DIR=1  keep the temporary folder and print its path
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUNNER="$ROOT/runner"
PACKAGES=("$@")
if [ ${#PACKAGES[@]} -eq 0 ]; then
  PACKAGES=(ms bytes minimist escape-html camelcase@6 is-number fresh vary statuses)
fi
BUDGET_MS="${BUDGET_MS:-20000}"
WORK="$(mktemp -d /tmp/vouch-generate-bench-XXXXXX)"
if [ "${KEEP_DIR:-}" != "1" ]; then trap 'rm -rf "$WORK"' EXIT; fi

echo "installing ${PACKAGES[*]} into $WORK/packages" >&2
mkdir -p "$WORK/packages"
(cd "$WORK/packages" && npm init -y >/dev/null && npm install --no-audit --no-fund --ignore-scripts "${PACKAGES[@]}" >/dev/null)

ROOT="$ROOT" RUNNER="$RUNNER" WORK="$WORK" BUDGET_MS="$BUDGET_MS" node - "${PACKAGES[@]}" <<'NODE'
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { moduleFiles } = require(path.join(process.env.ROOT, 'bench', 'npm_module_files.js'));

const runner = process.env.RUNNER;
const work = process.env.WORK;
const budget = Number(process.env.BUDGET_MS);
const packagesDir = path.join(work, 'packages', 'node_modules');

function writeFiles(dir, files) {
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, file.path), file.content);
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const rows = [];
for (const spec of process.argv.slice(2)) {
  const name = spec.replace(/(.)@.*$/, '$1');
  const files = moduleFiles(packagesDir, name);
  const job = JSON.stringify({ files, framework: 'jest', threshold: 80, timeBudgetMs: budget });
  const started = Date.now();
  const generated = spawnSync(process.execPath, [path.join(runner, 'bin', 'generate.js')], { input: job, maxBuffer: 64 << 20 });
  const seconds = (Date.now() - started) / 1000;
  const result = JSON.parse(generated.stdout.toString());
  if (result.error) throw new Error(`${name}: ${result.error}`);

  const dir = path.join(work, 'runs', name);
  writeFiles(dir, [...files, ...result.files]);
  const resultsFile = path.join(work, 'runs', `${name}.results.json`);
  const coverageDir = path.join(work, 'runs', `${name}.coverage`);
  spawnSync(process.execPath, [require.resolve('jest/bin/jest', { paths: [runner] }), '--ci', '--json', `--outputFile=${resultsFile}`,
    '--coverage', '--coverageReporters=json-summary', `--coverageDirectory=${coverageDir}`, '--runInBand', '--forceExit', '--silent',
    // As the run side does: coverage over every source file, tested or not.
    '--collectCoverageFrom=**/*.{js,mjs,cjs}', '--collectCoverageFrom=!**/jest.config.js'],
    { cwd: dir, env: { ...process.env, NODE_PATH: path.join(runner, 'node_modules') }, stdio: 'ignore' });
  const jest = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : { numPassedTests: 0, numFailedTests: NaN };
  const summary = fs.existsSync(path.join(coverageDir, 'coverage-summary.json'))
    ? JSON.parse(fs.readFileSync(path.join(coverageDir, 'coverage-summary.json'), 'utf8')).total : null;
  const pct = (metric) => (summary ? summary[metric].pct : 0);
  rows.push({
    module: name, statements: pct('statements'), branches: pct('branches'), functions: pct('functions'), lines: pct('lines'),
    kept: result.summary.testsKept, failing: jest.numFailedTests + (jest.numRuntimeErrorTestSuites || 0), seconds,
    stated: result.summary.coverage.statements,
  });
  process.stderr.write(`${name}: done in ${seconds}s\n`);
}

const header = ['module', 'stmts %', 'branch %', 'funcs %', 'lines %', 'kept', 'failing', 'gen s'];
const line = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(i ? 8 : 12)).join(' | ')} |`;
console.log(line(header));
console.log(line(header.map((h, i) => '-'.repeat(i ? 8 : 12))));
for (const row of rows) console.log(line([row.module, row.statements, row.branches, row.functions, row.lines, row.kept, row.failing, row.seconds.toFixed(1)]));
const medianOf = (key) => median(rows.map((row) => row[key]));
console.log(line(['median', medianOf('statements'), medianOf('branches'), medianOf('functions'), medianOf('lines'), medianOf('kept'), medianOf('failing'), medianOf('seconds').toFixed(1)]));
const mismatched = rows.filter((row) => Math.abs(row.stated - row.statements) > 0.5);
if (mismatched.length) console.log(`stated coverage differs from measured for: ${mismatched.map((row) => row.module).join(', ')}`);
NODE
