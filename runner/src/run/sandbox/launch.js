'use strict';

// Runs the sandbox command and watches it: relays stdin, relays and keeps the
// end of stderr, enforces the wall-time limit. stdout is handed straight to
// the command, so its result line reaches the server without a detour.

const { spawn } = require('node:child_process');
const os = require('node:os');

const STDERR_RELAY_LIMIT = 1024 * 1024;
const STDERR_TAIL_CHARS = 4096;
// stderr closes when the last process holding it ends. Without bubblewrap a
// process can leave the command's process group and outlive the kill; it
// must not hold the report back for long.
const STDERR_CLOSE_GRACE_MS = 1000;

// Resolves with {exit: {code, signal}, wallExpired, stderrTail}.
//
// The wall clock starts with the first byte (or the end) of stdin, not at
// launch: a warm runner waits, unbounded, in the server's pool until a job is
// written to it, and only the job's time counts.
function launch({ file, args, env, cwd, wallMs }) {
  return new Promise((resolve, reject) => {
    // Its own process group, so the wall timer can kill everything the
    // command started (bwrap itself also kills the whole sandbox when it dies).
    const child = spawn(file, args, { env, cwd, stdio: ['pipe', 'inherit', 'pipe'], detached: true });
    const killAll = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    let wallTimer = null;
    let wallExpired = false;
    const startWallClock = () => {
      wallTimer ??= setTimeout(() => {
        wallExpired = true;
        killAll();
      }, wallMs);
    };

    relayStdin(child, startWallClock);
    const stderr = relayStderr(child);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
      process.on(signal, () => {
        killAll();
        process.exit(128 + os.constants.signals[signal]);
      });
    }

    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(wallTimer);
      // Whatever the command left behind in its group goes with it.
      killAll();
      const ended = () => resolve({ exit: { code, signal }, wallExpired, stderrTail: stderr.tail() });
      setTimeout(ended, STDERR_CLOSE_GRACE_MS).unref();
      child.on('close', ended);
    });
  });
}

function relayStdin(child, onFirstInput) {
  process.stdin.on('data', (chunk) => {
    onFirstInput();
    child.stdin.write(chunk);
  });
  process.stdin.on('end', () => {
    onFirstInput();
    child.stdin.end();
  });
  // The command may exit without reading all its input.
  child.stdin.on('error', () => {});
}

// Passes stderr on, up to a limit so that a chatty command cannot flood the
// server's logs, and keeps its last characters to recognise how it died.
function relayStderr(child) {
  let relayed = 0;
  let tail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text) => {
    tail = (tail + text).slice(-STDERR_TAIL_CHARS);
    if (relayed < STDERR_RELAY_LIMIT) {
      const part = text.slice(0, STDERR_RELAY_LIMIT - relayed);
      relayed += part.length;
      process.stderr.write(relayed < STDERR_RELAY_LIMIT ? part : `${part}\n[sandbox: stderr cut at ${STDERR_RELAY_LIMIT} characters]\n`);
    }
  });
  return { tail: () => tail };
}

module.exports = { launch };
