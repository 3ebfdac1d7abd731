'use strict';
// bench/package_sweep.sh's client: imports each packed tarball, generates from the snapshot,
// runs the suite, and prints the table and the medians.

const fs = require('node:fs');
const path = require('node:path');

const [tarballs, ...packages] = process.argv.slice(2);
const base = `http://${process.env.ADDRESS}`;
const headers = { Authorization: `Bearer ${process.env.KEY}` };

async function call(method, target, body, contentType = 'application/json') {
  const response = await fetch(base + target, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'Content-Type': contentType } : {}) },
    body: body === undefined ? undefined : contentType === 'application/json' ? JSON.stringify(body) : body,
    signal: AbortSignal.timeout(600000),
  });
  const text = await response.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* an error page */ }
  return { status: response.status, json, text };
}

async function runToEnd(testId) {
  const started = await call('POST', '/v1/tests/run', { testId, environment: {} });
  if (started.status !== 202) return { outcome: `run ${started.status}` };
  for (;;) {
    const response = await fetch(`${base}/v1/tests/results/${started.json.runId}`, { headers: { ...headers, Prefer: 'wait=20' } });
    const run = await response.json();
    if (run.status === 'completed') return run;
  }
}

// The packed file of `name@version` (scoped names pack as scope-name-version.tgz).
function tarballOf(spec) {
  const at = spec.lastIndexOf('@');
  const name = at > 0 ? spec.slice(0, at) : spec;
  const prefix = `${name.replace(/^@/, '').replace('/', '-')}-`;
  return fs.readdirSync(tarballs).find((file) => file.startsWith(prefix) && /^\d/.test(file.slice(prefix.length)));
}

// Keeps each kept suite (the tarball's name and the generated files) in SUITES, for the
// portability step (bench/package_portability.sh) to run outside vouchd.
function saveSuite(spec, tarball, files) {
  if (!process.env.SUITES) return;
  const folder = path.join(process.env.SUITES, spec.replace(/[/@]/g, '_'));
  for (const file of files) {
    const target = path.join(folder, 'tests', file.path);
    if (!target.startsWith(path.join(folder, 'tests') + path.sep)) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content);
  }
  fs.copyFileSync(path.join(tarballs, tarball), path.join(folder, 'package.tgz'));
  fs.writeFileSync(path.join(folder, 'spec'), `${spec}\n`);
}

function median(values) {
  const sorted = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function sweep(spec) {
  const file = tarballOf(spec);
  if (!file) return { package: spec, error: 'not packed' };
  const project = await call('POST', '/v1/projects', { name: spec, config: { coverage: { threshold: 0 } } });
  const projectId = project.json.id;
  const imported = await call('POST', `/v1/projects/${projectId}/import`, fs.readFileSync(path.join(tarballs, file)), 'application/gzip');
  const row = { package: spec, import: imported.status, files: imported.json && imported.json.files };
  if (imported.status !== 201) return { ...row, error: imported.text.slice(0, 200) };
  const started = Date.now();
  const generated = await call('POST', '/v1/tests/generate', { projectId });
  row.generate = generated.status;
  row.generateSeconds = (Date.now() - started) / 1000;
  if (generated.status !== 201) return { ...row, error: generated.text.slice(0, 300) };
  const { summary } = generated.json;
  row.kept = summary.testsKept;
  row.targets = summary.package ? `${summary.package.targets.tested}/${summary.package.targets.found}` : '';
  row.generated = summary.testsGenerated;
  row.problems = {};
  for (const entry of summary.problems) row.problems[entry.code] = (row.problems[entry.code] || 0) + 1;
  // The package-wide problems (path `files`: a busy machine, verification cut at the wall limit)
  // in full, in OUT's JSON.
  row.packageProblems = summary.problems.filter((entry) => entry.path === 'files').map((entry) => entry.message);
  // Why files kept no test (verification says its group's reason), each reason once.
  row.noTestReasons = [
    ...new Set(summary.problems.filter((entry) => entry.code === 'no_tests').map((entry) => entry.message)),
  ];
  row.skipped = {};
  for (const entry of summary.skipped || []) row.skipped[entry.reason] = (row.skipped[entry.reason] || 0) + 1;
  // What the summary says was tested and skipped, file by file, in OUT's JSON.
  row.surface = summary.package || null;
  row.skippedFiles = (summary.skipped || []).map((entry) => `${entry.path}: ${entry.message || entry.reason}`);
  if (!summary.testsKept) return row;
  saveSuite(spec, file, generated.json.files);
  // RUNS runs of the same suite, as a user would start them: the figures are the first run's,
  // `passes` counts the runs that succeeded, and each other outcome's error is kept once.
  const runs = Math.max(1, Number(process.env.RUNS) || 1);
  row.passes = 0;
  row.runErrors = [];
  for (let index = 0; index < runs; index += 1) {
    const run = await runToEnd(generated.json.testId);
    if (run.outcome === 'success') row.passes += 1;
    const error = run.outcome === 'success' ? null
      : run.error ? `${run.error.code}: ${run.error.detail}`
      : `${run.outcome}: ${(run.failures || []).slice(0, 3).join(' | ')}`;
    if (error && !row.runErrors.includes(error)) row.runErrors.push(error.slice(0, 300));
    if (index > 0) continue;
    row.outcome = run.outcome;
    if (run.results) {
      row.failed = run.results.failed;
      row.statements = run.results.coverage.statements;
      row.branches = run.results.coverage.branches;
    }
  }
  row.runs = `${row.passes}/${runs}`;
  return row;
}

function cell(value, width) {
  const text = value === undefined || value === null ? '-' : String(value);
  return text.length >= width ? text.slice(0, width) : text + ' '.repeat(width - text.length);
}

async function main() {
  const rows = [];
  const columns = [['package', 26], ['import', 7], ['generate', 9], ['gen s', 7], ['kept', 9], ['targets', 9], ['run', 8], ['passed', 7], ['failed', 7], ['stmts %', 8], ['branch %', 9], ['skipped by reason; problems by code', 0]];
  console.log(columns.map(([name, width]) => cell(name, width || name.length)).join(' '));
  for (const spec of packages) {
    let row;
    try {
      row = await sweep(spec);
    } catch (error) {
      row = { package: spec, error: error.message };
    }
    rows.push(row);
    const skipped = Object.entries(row.skipped || {}).map(([reason, count]) => `${reason} ${count}`).join(', ');
    const problems = Object.entries(row.problems || {}).map(([code, count]) => `${code} ${count}`).join(', ');
    const kept = row.kept === undefined ? undefined : `${row.kept}/${row.generated}`;
    console.log([row.package, row.import, row.generate, row.generateSeconds, kept, row.targets, row.outcome, row.runs, row.failed, row.statements, row.branches]
      .map((value, index) => cell(value, columns[index][1])).join(' ') + ` ${skipped}${problems ? `; ${problems}` : ''}${row.error ? ` ERROR ${row.error.replace(/\s+/g, ' ')}` : ''}`);
    for (const error of row.runErrors || []) console.log(`    run: ${error.replace(/\s+/g, ' ')}`);
  }
  const codes = {};
  for (const row of rows) codes[row.generate ?? row.import ?? 'none'] = (codes[row.generate ?? row.import ?? 'none'] || 0) + 1;
  const withSuite = rows.filter((row) => row.kept > 0);
  console.log(`\ngenerate answers: ${Object.entries(codes).map(([code, count]) => `${code} x${count}`).join(', ')}`);
  console.log(`packages with a kept suite: ${withSuite.length}/${rows.length}; runs that passed: ${rows.filter((row) => row.outcome === 'success').length}; suites that passed every run: ${rows.filter((row) => row.kept > 0 && row.passes === Math.max(1, Number(process.env.RUNS) || 1)).length}`);
  console.log(`medians: tests kept ${median(rows.map((row) => row.kept ?? 0))}, statements ${median(withSuite.map((row) => row.statements))}%, branches ${median(withSuite.map((row) => row.branches))}%, generation ${median(rows.map((row) => row.generateSeconds))} s`);
  const reasons = {};
  for (const row of rows) for (const [reason, count] of Object.entries(row.skipped || {})) reasons[reason] = (reasons[reason] || 0) + count;
  console.log(`skipped files by reason (all packages): ${Object.entries(reasons).map(([reason, count]) => `${reason} ${count}`).join(', ') || 'none'}`);
  if (process.env.OUT) fs.writeFileSync(process.env.OUT, `${JSON.stringify(rows, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
