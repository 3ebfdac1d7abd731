'use strict';

// Drives a warm runner the way the server does: start run.js (under
// vouch-sandbox when sandbox options are given), wait for {"ready":true}, hand
// it one job, collect its result line, stderr, exit status and the sandbox's
// final report. Used by the tests and by bench/run_bench.sh.

const path = require('node:path');
const { spawn } = require('node:child_process');
const { SANDBOX, ownFolders } = require('./sandbox-launcher');

const BIN = path.join(__dirname, '..', '..', 'bin');

class WarmRunner {
  // Resolves once the runner is ready; rejects if it says or does anything else.
  // runArgs: run.js's own arguments (`--prime-rounds 0`); nodeArgs: node's, before run.js
  // (`--require FILE`); env: the environment, by default this process's.
  static async start({ workdir, sandboxOptions = null, runArgs = [], nodeArgs = [], env = process.env }) {
    const runJs = path.join(BIN, 'run.js');
    const [file, args] = sandboxOptions
      ? [SANDBOX, [workdir, ...sandboxOptions, ...ownFolders(), '--', process.execPath, ...nodeArgs, runJs, ...runArgs]]
      : [process.execPath, [...nodeArgs, runJs, ...runArgs]];
    const runner = new WarmRunner(spawn(file, args, { cwd: workdir, stdio: 'pipe', env }));
    const first = await runner.nextLine();
    if (first === null || !JSON.parse(first).ready) {
      throw new Error(`runner not ready: ${first}, exit ${JSON.stringify(await runner.ended)}\n${runner.stderr}`);
    }
    return runner;
  }

  constructor(child) {
    this.child = child;
    this.stderr = '';
    this.lines = [];
    this.waiting = [];
    this.closed = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      this.stderr += text;
    });
    readLines(child.stdout, (line) => {
      if (this.waiting.length > 0) this.waiting.shift()(line);
      else this.lines.push(line);
    });
    this.ended = new Promise((resolve) => {
      child.on('close', (code, signal) => {
        this.closed = true;
        this.waiting.splice(0).forEach((wake) => wake(null));
        resolve({ code, signal });
      });
    });
  }

  // Writes the job and resolves with {result, durationMs, exit, stderr,
  // sandbox}: `result` is the parsed result line (null if none came),
  // `durationMs` the time from writing the job to that line, `sandbox` the
  // launcher's final report (null without a sandbox).
  async run(job) {
    const started = process.hrtime.bigint();
    this.child.stdin.end(`${JSON.stringify(job)}\n`);
    const line = await this.nextLine();
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    const exit = await this.ended;
    return {
      result: line === null ? null : JSON.parse(line),
      durationMs,
      exit,
      stderr: this.stderr,
      sandbox: sandboxReport(this.stderr),
    };
  }

  // The next stdout line, or null once the process has ended.
  nextLine() {
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift());
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

function readLines(stream, onLine) {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (text) => {
    buffered += text;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    lines.forEach(onLine);
  });
}

// The launcher's last stderr line: {"sandbox":{...}}.
function sandboxReport(stderr) {
  const last = stderr.trimEnd().split('\n').pop();
  try {
    return JSON.parse(last).sandbox ?? null;
  } catch {
    return null;
  }
}

module.exports = { WarmRunner };
