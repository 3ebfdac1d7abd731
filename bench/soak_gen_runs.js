'use strict';
// The soak bench's generations and runs (bench/soak_bench.sh): until killed,
// generates tests for a small module in a fresh project and runs them, one
// after another, and appends "<unix seconds> generation|run ok|failed" per
// call to the file OUT.
const fs = require('fs');
const { client } = require('./vouch_api');

const { ADDRESS, KEY, OUT } = process.env;
const MODULE = {
  path: 'src/units.js',
  content: `'use strict';
const UNITS = { ms: 1, s: 1000, m: 60000, h: 3600000 };
exports.parse = (text) => {
  if (typeof text !== 'string' || text.length === 0) throw new TypeError('expected a duration');
  const match = /^(\\d+)\\s*(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2] || 'ms'];
};
exports.format = (ms) => (ms >= 3600000 ? \`\${Math.round(ms / 3600000)}h\` : \`\${ms}ms\`);
`,
};

function note(kind, ok) {
  fs.appendFileSync(OUT, `${Math.floor(Date.now() / 1000)} ${kind} ${ok ? 'ok' : 'failed'}\n`);
}

async function main() {
  const { api, runToEnd } = client(`http://${ADDRESS}`, KEY);
  for (let round = 0; ; round += 1) {
    let test;
    try {
      const project = await api('POST', '/v1/projects', { name: `soak-${round}` });
      test = await api('POST', '/v1/tests/generate', { projectId: project.id, files: [MODULE] });
      note('generation', true);
    } catch (error) {
      process.stderr.write(`generation: ${error.message}\n`);
      note('generation', false);
      continue;
    }
    try {
      const run = await runToEnd(test.testId);
      note('run', run.status === 'completed' && !run.error);
    } catch (error) {
      process.stderr.write(`run: ${error.message}\n`);
      note('run', false);
    }
  }
}

main();
