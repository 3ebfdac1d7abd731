'use strict';
// The driver of bench/api_bench.sh (see there). Speaks HTTP to vouchd.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { moduleFiles } = require('./npm_module_files');
const { client } = require('./vouch_api');

const { ROOT, WORK, KEY, ADDRESS, VOUCHD_PID } = process.env;
const ROUNDS = Number(process.env.ROUNDS);
const RUNS = Number(process.env.RUNS);
const WARM_RUNNERS = 2;  // vouchd's default --warm-runners

async function poolReady() {
  for (;;) {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const ready = Number((/^vouch_runners_ready (\d+)$/m.exec(metrics) || [])[1]);
    if (ready >= WARM_RUNNERS) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const base = `http://${ADDRESS}`;
const packagesDir = path.join(WORK, 'packages', 'node_modules');
const jestBin = path.join(ROOT, 'runner', 'node_modules', 'jest', 'bin', 'jest.js');

const { api, runToEnd } = client(base, KEY);

// CPU seconds: vouchd's own (utime + stime of /proc/PID/stat), and the
// whole machine's busy time (/proc/stat: all but idle and iowait), which
// takes in the runners and sandboxes vouchd starts (they are killed as a
// group when done, so their time never reaches vouchd's children figures).
const CLOCK_TICKS = 100;
function cpuSeconds() {
  const fields = fs.readFileSync(`/proc/${VOUCHD_PID}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  const vouchd = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const machine = (cpu.reduce((a, b) => a + b, 0) - cpu[3] - cpu[4]) / CLOCK_TICKS;
  return { vouchd, machine };
}
function cpuSince(before) {
  const now = cpuSeconds();
  return { vouchd: now.vouchd - before.vouchd, machine: now.machine - before.machine };
}

const sorted = (values) => [...values].sort((a, b) => a - b);
const median = (values) => {
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const quantile = (values, q) => sorted(values)[Math.min(values.length - 1, Math.floor(q * values.length))];

function coldJest(dir) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [jestBin, '--coverage', '--ci'], { cwd: dir, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(Number(process.hrtime.bigint() - started) / 1e6));
  });
}

async function main() {
  const project = await api('POST', '/v1/projects', { name: 'bench', config: { coverage: { threshold: 0 } } });

  // 1. Generation through the API.
  const rows = [];
  for (const spec of process.argv.slice(2)) {
    const name = spec.replace(/(.)@.*$/, '$1');
    const files = moduleFiles(packagesDir, name);
    const started = Date.now();
    const test = await api('POST', '/v1/tests/generate', { projectId: project.id, files });
    const seconds = (Date.now() - started) / 1000;
    const run = await runToEnd(test.testId);
    const coverage = run.results ? run.results.coverage : { statements: 0, branches: 0, functions: 0, lines: 0 };
    rows.push({
      module: name, ...coverage, kept: test.summary.testsKept,
      failing: run.results ? run.results.failed : NaN, seconds, test, files,
    });
    process.stderr.write(`${name}: generated in ${seconds}s, run ${run.outcome}\n`);
  }
  const line = (cells) => `| ${cells.map((cell, i) => String(cell).padEnd(i ? 8 : 12)).join(' | ')} |`;
  const header = ['module', 'stmts %', 'branch %', 'funcs %', 'lines %', 'kept', 'failing', 'gen s'];
  console.log('Generation through POST /v1/tests/generate, coverage from POST /v1/tests/run:');
  console.log(line(header));
  console.log(line(header.map((h, i) => '-'.repeat(i ? 8 : 12))));
  for (const r of rows) console.log(line([r.module, r.statements, r.branches, r.functions, r.lines, r.kept, r.failing, r.seconds.toFixed(1)]));
  const med = (key) => median(rows.map((r) => r[key]));
  console.log(line(['median', med('statements'), med('branches'), med('functions'), med('lines'), med('kept'), med('failing'), med('seconds').toFixed(1)]));

  // 2. Latency of one run against cold jest on the same files.
  const subject = rows.find((r) => r.module === 'ms') || rows[0];
  const dir = path.join(WORK, 'cold', subject.module);
  for (const file of [...subject.files, ...subject.test.files]) {
    fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, file.path), file.content);
  }
  await coldJest(dir);  // the file system cache warm for both
  const cold = [];
  for (let i = 0; i < ROUNDS; i += 1) cold.push(await coldJest(dir));
  // Runs arriving one at a time, each finding the pool ready (a used runner
  // is replaced in about a second, off the run's path): wait until /metrics
  // shows the pool full again, as it is between a team's runs.
  const warm = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    await poolReady();
    const started = process.hrtime.bigint();
    const run = await runToEnd(subject.test.testId);
    if (run.outcome !== 'success') throw new Error(`run failed: ${JSON.stringify(run)}`);
    warm.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  console.log(`\nRun latency on ${subject.module} (${subject.kept} tests), ${ROUNDS} rounds each, each run posted when the pool is ready:`);
  console.log(`  node jest.js --coverage --ci : median ${median(cold).toFixed(0)} ms, p90 ${quantile(cold, 0.9).toFixed(0)} ms`);
  console.log(`  POST /run → completed        : median ${median(warm).toFixed(0)} ms, p90 ${quantile(warm, 0.9).toFixed(0)} ms`);
  console.log(`  ratio (target ≤ 0.3)         : ${(median(warm) / median(cold)).toFixed(2)}`);

  // 3. Throughput with the pool busy.
  const executors = 2;
  await poolReady();
  const burstBefore = cpuSeconds();
  let started = Date.now();
  const outcomes = await Promise.all(Array.from({ length: RUNS }, () => runToEnd(subject.test.testId)));
  const apiSeconds = (Date.now() - started) / 1000;
  const ok = outcomes.filter((run) => run.outcome === 'success').length;
  // The refill after the burst belongs to it: wait until the pool is full.
  await poolReady();
  const burstCpu = cpuSince(burstBefore);
  const coldBefore = cpuSeconds();
  started = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: executors }, async () => {
    while (next < RUNS) { next += 1; await coldJest(dir); }
  }));
  const coldSeconds = (Date.now() - started) / 1000;
  const coldCpu = cpuSince(coldBefore);
  console.log(`\nThroughput, ${RUNS} runs posted at once (${executors} executors; cold jest ${executors} at a time):`);
  console.log(`  cold jest : ${(RUNS / coldSeconds * 60).toFixed(0)} runs/min`);
  console.log(`  vouchd    : ${(RUNS / apiSeconds * 60).toFixed(0)} runs/min (${ok}/${RUNS} success)`);
  console.log(`  ratio     : ${(coldSeconds / apiSeconds).toFixed(2)}× cold jest`);
  const perRun = (seconds) => `${(seconds / RUNS * 1000).toFixed(0)} ms`;
  console.log('CPU per run (machine busy time over the phase; the burst includes the pool refill after it):');
  console.log(`  cold jest     : ${perRun(coldCpu.machine)}`);
  console.log(`  vouchd burst  : ${perRun(burstCpu.machine)}, of which vouchd itself ${perRun(burstCpu.vouchd)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
