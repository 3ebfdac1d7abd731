'use strict';
// The driver of bench/api_bench.sh (see there). Speaks HTTP to vouchd.
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { moduleFiles } = require('./npm_module_files');
const { client } = require('./vouch_api');

const { ROOT, WORK, KEY, ADDRESS, VOUCHD_PID } = process.env;
const ROUNDS = Number(process.env.ROUNDS);
const RUNS = Number(process.env.RUNS);
const WARM_RUNNERS = 2;  // vouchd's default --warm-runners
// Runs posted at once for the plot, each level run at least SWEEP_MIN_RUNS times.
const SWEEP = (process.env.SWEEP || '1 2 4 8 16 24').split(' ').map(Number);
const SWEEP_MIN_RUNS = 8;
const PLOT = process.env.PLOT;

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
  const accounting = startAccounting();
  let started = Date.now();
  const outcomes = await Promise.all(Array.from({ length: RUNS }, () => runToEnd(subject.test.testId)));
  const apiSeconds = (Date.now() - started) / 1000;
  const ok = outcomes.filter((run) => run.outcome === 'success').length;
  // The refill after the burst belongs to it: wait until the pool is full.
  await poolReady();
  const burstCpu = cpuSince(burstBefore);
  const processes = accounting.stop();
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
  if (processes) printBreakdown(processes, burstCpu, perRun);

  // 4. Runs per minute against runs posted at once, for the plot.
  const sweep = [];
  for (const posted of SWEEP) {
    const total = Math.max(posted, SWEEP_MIN_RUNS);
    await poolReady();
    started = Date.now();
    for (let done = 0; done < total; done += posted) {
      const wave = await Promise.all(Array.from({ length: Math.min(posted, total - done) }, () => runToEnd(subject.test.testId)));
      if (wave.some((run) => run.outcome !== 'success')) throw new Error('a run of the sweep failed');
    }
    const vouchdPerMin = total / ((Date.now() - started) / 60000);
    const parallel = Math.min(posted, executors);
    started = Date.now();
    let next = 0;
    await Promise.all(Array.from({ length: parallel }, async () => {
      while (next < total) { next += 1; await coldJest(dir); }
    }));
    const coldPerMin = total / ((Date.now() - started) / 60000);
    sweep.push({ posted, vouchdPerMin, coldPerMin });
    console.log(`  ${String(posted).padStart(2)} posted at once: vouchd ${vouchdPerMin.toFixed(0)} runs/min, cold jest (${parallel} at a time) ${coldPerMin.toFixed(0)} runs/min, ratio ${(vouchdPerMin / coldPerMin).toFixed(2)}`);
  }
  plot(sweep);
}

// Process accounting (acct) over the burst: every process that ended, with
// its CPU time, tells where the machine's time went. Off when accton is
// missing (the bench script installs it).
function startAccounting() {
  const file = path.join(WORK, 'acct');
  fs.writeFileSync(file, '');
  if (spawnSync('accton', [file]).status !== 0) return { stop: () => null };
  return {
    stop() {
      spawnSync('accton', ['off']);
      const listed = spawnSync('lastcomm', ['-f', file], { encoding: 'utf8' }).stdout || '';
      // "node  S  X 18790634 __  2.63 secs Wed Nov 25 16:41": command, flags, user, tty, CPU.
      return listed.split('\n').map((line) => {
        const match = /^(\S+)\s+(?:[SFCDX]\s+)*(\S+)\s+\S+\s+([\d.]+) secs/.exec(line);
        return match && { command: match[1], user: match[2], cpu: Number(match[3]) };
      }).filter(Boolean);
    },
  };
}

function printBreakdown(processes, burstCpu, perRun) {
  const sum = (list) => list.reduce((total, p) => total + p.cpu, 0);
  // Sandboxed processes run as a uid of their own.
  const runners = processes.filter((p) => p.command === 'node' && p.user !== 'root');
  const launchers = processes.filter((p) => p.command === 'vouch-sandbox');
  const isolation = processes.filter((p) => p.command === 'bwrap' || p.command === 'setpriv');
  const medianCpu = runners.length ? median(runners.map((p) => p.cpu)) : 0;
  console.log('Where the burst\'s CPU went (process accounting; per run posted):');
  console.log(`  runners (node run.js: loading Jest, priming, the job): ${perRun(sum(runners))} in ${runners.length} processes, median ${(medianCpu * 1000).toFixed(0)} ms each`);
  console.log(`  sandbox launchers (vouch-sandbox)                    : ${perRun(sum(launchers))} in ${launchers.length} processes`);
  console.log(`  bubblewrap and setpriv                               : ${perRun(sum(isolation))}`);
  console.log(`  vouchd (API, event log, pool, reports)               : ${perRun(burstCpu.vouchd)}`);
  const accounted = sum(runners) + sum(launchers) + sum(isolation) + burstCpu.vouchd;
  console.log(`  everything else on the machine                       : ${perRun(Math.max(0, burstCpu.machine - accounted))}`);
}

// Draws runs per minute against runs posted at once (gnuplot, PNG).
function plot(sweep) {
  const data = path.join(WORK, 'sweep.dat');
  fs.writeFileSync(data, sweep.map((row) => `${row.posted} ${row.vouchdPerMin} ${row.coldPerMin}`).join('\n') + '\n');
  const script = [
    `set terminal pngcairo size 900,540`,
    `set output '${PLOT}'`,
    `set title 'Test runs per minute on this machine (2 executors; cold jest as many at once, up to 2)'`,
    `set xlabel 'runs posted at once'`,
    `set ylabel 'runs per minute'`,
    `set yrange [0:*]`,
    `set key bottom right`,
    `set grid`,
    `plot '${data}' using 1:2 with linespoints title 'vouchd (POST /v1/tests/run)', '${data}' using 1:3 with linespoints title 'cold jest --coverage'`,
  ].join('\n');
  const drawn = spawnSync('gnuplot', [], { input: script, encoding: 'utf8' });
  if (drawn.status !== 0) {
    console.log(`(no plot: gnuplot ${drawn.error ? drawn.error.message : drawn.stderr})`);
    return;
  }
  console.log(`plot: ${PLOT}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
