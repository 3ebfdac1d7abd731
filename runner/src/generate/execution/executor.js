'use strict';
// Runs the code under test in a child process (child/main.js) with a memory limit, so that what
// it does cannot crash or block generation. Every request has a deadline: a child that misses it
// (an endless loop after an `await`, say) or dies (out of memory) is replaced by a fresh one and
// the request is answered with `{ ok: false, lost: 'timeout' | 'crash' }`.

const { fork } = require('node:child_process');
const path = require('node:path');
const { testEnvironment } = require('./test-environment');

const CHILD_MAIN = path.join(__dirname, 'child', 'main.js');

class Executor {
  // init: the message that primes a child ({ files, coveragePaths, limits }).
  constructor(init, { memoryMb = 512 } = {}) {
    this.init = init;
    this.memoryMb = memoryMb;
    this.child = null;
    this.nextId = 1;
    this.pending = null;
    this.restarts = 0;
  }

  spawn() {
    const child = fork(CHILD_MAIN, [], {
      execArgv: [`--max-old-space-size=${this.memoryMb}`],
      env: testEnvironment(),
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    child.on('message', (message) => this.settle(child, message));
    child.on('exit', () => {
      if (this.child === child) this.child = null;
      this.settle(child, { ok: false, lost: 'crash' });
    });
    child.on('error', () => {});
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

  request(message, timeoutMs) {
    if (!this.child) this.spawn();
    const child = this.child;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.kill();
        this.settle(child, { ok: false, lost: 'timeout' });
      }, timeoutMs);
      this.pending = { id, child, resolve, timer };
      child.send({ id, ...message });
    });
  }

  load(entry, timeoutMs) {
    return this.request({ type: 'load', entry }, timeoutMs);
  }

  // clockShiftMs moves the clock the scenario sees (see child/clock.js); fakeTimers runs it with
  // Jest's fake timers in use (see child/fake-timers.js); override ({ path, code }) runs a mutant
  // of one file instead of the file.
  run(entry, bindings, program, timeoutMs, { clockShiftMs = 0, fakeTimers = false, override = null } = {}) {
    return this.request(
      { type: 'run', entry, bindings, program, clockShiftMs, fakeTimers, ...(override ? { override } : {}) },
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
