'use strict';
// Runs the code under test in a child process (child/main.js) with a memory limit, so that what
// it does cannot crash or block generation. Every request has a deadline: a child that misses it
// (an endless loop after an `await`, say) or dies (out of memory) is replaced by a fresh one and
// the request is answered with `{ ok: false, lost: 'timeout' | 'crash' }`.

const { fork } = require('node:child_process');
const path = require('node:path');
const { testEnvironment } = require('./test-environment');

const CHILD_MAIN = path.join(__dirname, 'child', 'main.js');
// How long a new child may take to start (Node, the loader, jest-mock) before it counts as lost.
// A request's own deadline starts once the child is ready: on a busy machine start-up alone can
// take longer than a module's 2 s load limit, and every file then failed to load.
const START_MS = 10000;

// Run as root (a bench outside the sandbox), the child's standard streams are pipes of its own,
// not /dev/null: code under test that changes the file behind a descriptor (graceful-fs's
// `fchmod(1, mode)`, `fchown(2, uid, gid)`) would otherwise change the machine's /dev/null. Not
// otherwise: reading them then gives EOF, as in a test run, where a pipe's would give EAGAIN.
const AS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

class Executor {
  // init: the message that primes a child ({ files, coveragePaths, limits, nodePath, elsewhere,
  // protectedFolders: what the code under test must never change, child/folder-guard.js }).
  constructor(init, { memoryMb = 512 } = {}) {
    this.init = init;
    this.memoryMb = memoryMb;
    this.child = null;
    this.nextId = 1;
    this.pending = null;
    this.restarts = 0;
    this.preloads = new Map(); // entry -> files its loads start with
  }

  spawn() {
    const child = fork(CHILD_MAIN, [], {
      execArgv: [`--max-old-space-size=${this.memoryMb}`],
      env: testEnvironment(),
      stdio: AS_ROOT ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    if (AS_ROOT) {
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on('error', () => {});
      child.stdin.end();
      child.stdout.resume();
      child.stderr.resume();
    }
    let started;
    this.started = new Promise((resolve) => {
      started = resolve;
    });
    child.on('message', (message) => (message.id === 0 ? started() : this.settle(child, message)));
    // A child that could not be spawned (EAGAIN, EACCES in a busy sandbox) reports an error and
    // no exit: its requests are lost at once, and the next one spawns a new child.
    const lost = () => {
      if (this.child === child) this.child = null;
      started();
      this.settle(child, { ok: false, lost: 'crash' });
    };
    child.on('exit', lost);
    child.on('error', lost);
    child.send({ id: 0, type: 'init', ...this.init });
    this.child = child;
  }

  settle(child, message) {
    const pending = this.pending;
    if (!pending || pending.child !== child || (message.id !== undefined && message.id !== pending.id && !message.lost))
      return;
    this.pending = null;
    clearTimeout(pending.timer);
    pending.resolve(message);
  }

  // Sends a request once the child has started; its deadline, timeoutMs, counts from then.
  request(message, timeoutMs) {
    if (!this.child) this.spawn();
    const { child, started } = this;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const pending = { id, child, resolve, timer: null };
      const lose = (ms) =>
        setTimeout(() => {
          this.kill();
          this.settle(child, { ok: false, lost: 'timeout' });
        }, ms);
      pending.timer = lose(START_MS);
      this.pending = pending;
      started.then(() => {
        if (this.pending !== pending) return;
        clearTimeout(pending.timer);
        pending.timer = lose(timeoutMs);
        child.send({ id, ...message });
      });
    });
  }

  // `preload`: files to load first, in the same registry (module-loader.js). Once a load with
  // them succeeds, every run of `entry` loads them first too.
  async load(entry, timeoutMs, preload = []) {
    const reply = await this.request({ type: 'load', entry, preload }, timeoutMs);
    if (reply.ok && preload.length) this.preloads.set(entry, preload);
    return reply;
  }

  // clockShiftMs moves the clock the scenario sees (see child/clock.js); fakeTimers runs it with
  // Jest's fake timers in use (see child/fake-timers.js); override ({ path, code }) runs a mutant
  // of one file instead of the file.
  run(entry, bindings, program, timeoutMs, { clockShiftMs = 0, fakeTimers = false, override = null } = {}) {
    return this.request(
      {
        type: 'run',
        entry,
        bindings,
        program,
        clockShiftMs,
        fakeTimers,
        preload: this.preloads.get(entry) || [],
        ...(override ? { override } : {}),
      },
      timeoutMs,
    );
  }

  kill() {
    if (!this.child) return;
    this.restarts++;
    this.child.kill('SIGKILL');
    this.child = null;
  }

  close() {
    if (this.child) {
      this.child.kill('SIGKILL');
      this.child = null;
    }
  }
}

module.exports = { Executor };
