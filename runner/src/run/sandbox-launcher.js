'use strict';

// Where the sandbox launcher is, for what drives runners the way the server
// does (the tests, bench/run_bench.sh): vouch-sandbox, a C++ program built
// with vouchd (process/sandbox/ in the repository; protocol: runner/README.md,
// "## sandbox"). VOUCH_SANDBOX names another build of it.

const path = require('node:path');

const RUNNER_ROOT = path.resolve(__dirname, '..', '..');
const SANDBOX = process.env.VOUCH_SANDBOX || path.join(RUNNER_ROOT, '..', 'build', 'vouch-sandbox');

// Where the work folder appears inside bubblewrap (kSandboxWorkdir in
// process/sandbox/command.hpp).
const SANDBOX_WORKDIR = '/tmp/vouch-work';

// The --ro options that keep a runner's own files visible when a hidden
// folder or the sandbox's private /tmp covers them, as the server passes
// them: the runner's folder and the Node.js binary's.
function ownFolders() {
  return ['--ro', RUNNER_ROOT, '--ro', path.dirname(process.execPath)];
}

module.exports = { SANDBOX, SANDBOX_WORKDIR, ownFolders };
