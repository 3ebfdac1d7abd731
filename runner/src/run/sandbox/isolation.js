'use strict';

// Finds the strongest isolation this machine allows, by trying it: the exact
// sandbox command that a run would use, on a throwaway folder, running `true`.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { buildSandboxCommand } = require('./command');

const STRONGEST_FIRST = ['bubblewrap', 'unshare'];
const PROBE_LIMITS = { cpuSeconds: 5, memoryMb: 256, maxProcs: 64, maxFileMb: 1, wallMs: 5000 };

function detectIsolation({ uid, isRoot }) {
  return STRONGEST_FIRST.find((isolation) => works({ isolation, uid, isRoot })) ?? 'none';
}

function works({ isolation, uid, isRoot }) {
  const workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-probe-'));
  try {
    const { file, args, env } = buildSandboxCommand({
      isolation, workdir, command: ['true'], limits: PROBE_LIMITS, hide: [], readOnly: [], uid, isRoot,
    });
    const result = spawnSync(file, args, { env, cwd: workdir, stdio: 'ignore', timeout: PROBE_LIMITS.wallMs });
    return result.status === 0;
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
}

// What --probe prints: the isolation, and whether the sandbox can reach the
// network (only without any isolation).
function describeIsolation(isolation) {
  return { isolation, network: isolation === 'none' };
}

module.exports = { detectIsolation, describeIsolation };
