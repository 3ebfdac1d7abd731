'use strict';
// The driver of bench/scaling_bench.sh (see there), for one worker count:
// waits for the workers to join, then times a burst of runs and a burst of
// generations posted at once, and prints one row of the table.
const fs = require('fs');
const { client } = require('./vouch_api');

const { KEY, ADDRESS, STATE } = process.env;
const WORKERS = Number(process.env.WORKERS);
const CPUS_USED = Number(process.env.CPUS_USED);
const RUNS = Number(process.env.RUNS);
const GENERATIONS = Number(process.env.GENERATIONS);
const base = `http://${ADDRESS}`;

// A module with a few branches, so that generation and runs do real work.
const MODULE = {
  path: 'src/units.js',
  content: `'use strict';
const UNITS = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000 };
exports.parse = (text) => {
  if (typeof text !== 'string' || text.length === 0) throw new TypeError('expected a duration');
  const match = /^(-?\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return NaN;
  return Number(match[1]) * UNITS[match[2] || 'ms'];
};
exports.format = (ms) => {
  const abs = Math.abs(ms);
  for (const unit of ['d', 'h', 'm', 's']) {
    if (abs >= UNITS[unit]) return Math.round(ms / UNITS[unit]) + unit;
  }
  return ms + 'ms';
};
`,
};

const { api, runToEnd } = client(base, KEY);

async function metric(name) {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Number((new RegExp(`^${name} (\\d+)$`, 'm').exec(text) || [])[1]);
}

async function main() {
  const deadline = Date.now() + 60000;
  while ((await metric('vouch_workers_remote')) < WORKERS) {
    if (Date.now() > deadline) throw new Error(`${WORKERS} workers did not join`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const project = await api('POST', '/v1/projects', { name: `scaling-${WORKERS}`, config: { coverage: { threshold: 0 } } });
  const test = await api('POST', '/v1/tests/generate', { projectId: project.id, files: [MODULE] });
  await runToEnd(test.testId);  // every worker's first start is out of the figures

  let started = Date.now();
  const runs = await Promise.all(Array.from({ length: RUNS }, () => runToEnd(test.testId)));
  const runSeconds = (Date.now() - started) / 1000;
  const failed = runs.filter((run) => run.outcome !== 'success').length;
  if (failed) throw new Error(`${failed} of ${RUNS} runs did not succeed`);

  started = Date.now();
  await Promise.all(Array.from({ length: GENERATIONS }, () =>
    api('POST', '/v1/tests/generate', { projectId: project.id, files: [MODULE] })));
  const generationSeconds = (Date.now() - started) / 1000;

  const row = { runsPerMin: (RUNS * 60) / runSeconds, generationsPerMin: (GENERATIONS * 60) / generationSeconds };
  let baseline = row;
  if (WORKERS === 1) fs.writeFileSync(STATE, JSON.stringify(row));
  else if (fs.existsSync(STATE)) baseline = JSON.parse(fs.readFileSync(STATE, 'utf8'));
  const ideal = (value) => (value * WORKERS).toFixed(1);
  console.log(`${String(WORKERS).padEnd(8)} ${String(CPUS_USED).padEnd(6)} ${row.runsPerMin.toFixed(1).padStart(14)} ` +
              `${ideal(baseline.runsPerMin).padStart(14)} ${row.generationsPerMin.toFixed(1).padStart(18)} ` +
              `${ideal(baseline.generationsPerMin).padStart(18)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
