'use strict';
// Runs a program as its users would: `node bin/x.js ARGS` with stdin, in an empty folder of its
// own (what it writes there is thrown away, never the package's), in the environment a run gives
// the tests (the installed dependencies on NODE_PATH, as a run's
// tests see them). Each command line runs twice; only outcomes both runs agree on, that ended by
// themselves and print nothing of the machine (the generation folder, home or tmp paths), become
// tests: spawned, one per distinct outcome; run in the test's process (where the program can be),
// one per command line, since two lines with the same output can run different code (`hello` and
// `-G hello` both print nothing, and only the second reads the option).

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { testEnvironment } = require('../execution/test-environment');
const { cliScenarios } = require('./cli-scenarios');

const RUN_TIMEOUT_MS = 3000;
const MAX_TESTS_PER_PROGRAM = 6;
const MAX_COMMAND_LINES = 12;

function runOnce(programPath, scenario, nodePath) {
  const env = { ...testEnvironment(), ...(nodePath ? { NODE_PATH: nodePath } : {}) };
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-program-'));
  try {
    const result = spawnSync(process.execPath, [programPath, ...scenario.args], {
      cwd,
      env,
      input: scenario.stdin,
      encoding: 'utf8',
      timeout: RUN_TIMEOUT_MS,
      maxBuffer: 1 << 20,
    });
    if (result.error || result.signal !== null || result.status === null) return null;
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

function mentionsMachine(text, folders) {
  return folders.some((folder) => folder && text.includes(folder));
}

// program: { name, path } (job paths); execPath: a job path's absolute path; expired(): whether
// the phase's time is up, asked before each command line; inProcess: whether its command lines can
// also run in the test's process. Returns [{ scenario, outcome, spawned }], `spawned` on the
// first command line of each distinct outcome.
function exploreProgram(program, { execPath, source, nodePath, expired, inProcess = false }) {
  const machine = [execPath('').replace(/\/$/, ''), os.tmpdir(), os.homedir(), process.env.HOME].filter(Boolean);
  const kept = [];
  const seen = new Set();
  const spawnedCount = () => kept.filter((entry) => entry.spawned).length;
  for (const scenario of cliScenarios(source)) {
    if (expired() || kept.length >= MAX_COMMAND_LINES || spawnedCount() >= MAX_TESTS_PER_PROGRAM) break;
    const first = runOnce(execPath(program.path), scenario, nodePath);
    if (!first) continue;
    const second = runOnce(execPath(program.path), scenario, nodePath);
    if (!second || JSON.stringify(first) !== JSON.stringify(second)) continue;
    if (mentionsMachine(first.stdout + first.stderr, machine)) continue;
    const key = JSON.stringify(first);
    const spawned = !seen.has(key);
    seen.add(key);
    if (spawned || (inProcess && !scenario.stdin)) kept.push({ scenario, outcome: first, spawned });
  }
  return kept;
}

module.exports = { exploreProgram };
