'use strict';

// sandbox.js: runs one command in a sandbox and reports how it ended.
// Protocol: runner/README.md, "## sandbox".

const fs = require('node:fs');
const path = require('node:path');
const { parseOptions, defaultUid, UsageError, USAGE } = require('./options');
const { detectIsolation, describeIsolation } = require('./isolation');
const { buildSandboxCommand } = require('./command');
const { launch } = require('./launch');
const { describeOutcome, sandboxFailed } = require('./outcome');

async function main(argv) {
  const isRoot = process.getuid() === 0;
  let options;
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`sandbox.js: ${error.message}\n${USAGE}\n`);
    finish(sandboxFailed(error.message));
    return;
  }
  if (options.probe) {
    const isolation = detectIsolation({ uid: defaultUid(), isRoot });
    process.stdout.write(`${JSON.stringify(describeIsolation(isolation))}\n`);
    return;
  }

  const isolation = options.isolation === 'auto' ? detectIsolation({ uid: options.uid, isRoot }) : options.isolation;
  process.stderr.write(`${announce(isolation, options, isRoot)}\n`);
  if (isRoot) chownTree(options.workdir, options.uid);
  const { file, args, env } = buildSandboxCommand({ ...options, isolation, isRoot });
  try {
    const ended = await launch({ file, args, env, cwd: options.workdir, wallMs: options.limits.wallMs });
    finish(describeOutcome({ ...ended, viaBwrap: isolation === 'bubblewrap', limits: options.limits }));
  } catch (error) {
    finish(sandboxFailed(`could not start ${file}: ${error.message}`));
  }
}

// The last line on stderr, then the matching exit code.
function finish({ report, exitCode }) {
  process.stderr.write(`${JSON.stringify({ sandbox: report })}\n`);
  process.exit(exitCode);
}

// The one line saying which isolation is in effect, and what it lacks.
function announce(isolation, options, isRoot) {
  const missing = {
    bubblewrap: [],
    unshare: ['file system not isolated, --hide and --ro not applied'],
    none: ['network reachable', 'file system not isolated, --hide and --ro not applied'],
  }[isolation];
  if (!isRoot) missing.push('process limit not enforced (needs root to run as a uid of its own)');
  const user = isRoot ? `uid ${options.uid}` : `uid ${process.getuid()} (the launcher's)`;
  return `sandbox: isolation ${isolation}, ${user}${missing.map((gap) => `; ${gap}`).join('')}`;
}

// The sandbox uid must be able to write its work folder (the server creates it).
function chownTree(folder, uid) {
  fs.chownSync(folder, uid, uid);
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const entryPath = path.join(folder, entry.name);
    if (entry.isDirectory()) chownTree(entryPath, uid);
    else fs.lchownSync(entryPath, uid, uid);
  }
}

module.exports = { main };
