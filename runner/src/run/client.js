'use strict';

// Drives a warm runner the way the server does: start run.js (inside
// sandbox.js when sandbox options are given), wait for {"ready":true}, hand
// it one job, collect its result line, stderr, exit status and the sandbox's
// final report. Used by the tests and by bench/run_bench.sh.

const path = require('node:path');
const { spawn } = require('node:child_process');

const BIN = path.join(__dirname, '..', '..', 'bin');

class WarmRunner {
  // Resolves once the runner is ready; rejects if it exits first.
  static start({ workdir, sandboxOptions = null }) {
    const runJs = [process.execPath, path.join(BIN, 'run.js')];
    const args = sandboxOptions
      ? [path.join(BIN, 'sandbox.js'), workdir, ...sandboxOptions, '--', ...runJs]
      : runJs.slice(1);
    const child = spawn(process.execPath, args, { cwd: workdir, stdio: ['pipe', 'pipe', 'pipe'] });
    return new WarmRunner(child).ready;
  }

  constructor(child) {
    this.child = child;
    this.stderr = '';
    this.lines = [];
    this.waiting = null;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => { this.stderr += text; });
    readLines(child.stdout, (line) => this.onLine(line));
    this.ended = new Promise((resolve) => {
      child.on('close', (code, signal) => resolve({ code, signal }));
    });
    this.ready = Promise.race([
      this.nextLine().then((line) => {
        if (!line || !JSON.parse(line).ready) throw new Error(`runner not ready: ${line}\n${this.stderr}`);
        return this;
      }),
      this.ended.then((exit) => {
        throw new Error(`runner exited before it was ready (${JSON.stringify(exit)}):\n${this.stderr}`);
      }),
    ]);
  }

  // Writes the job and resolves with {result, durationMs, exit, stderr,
  // sandbox}: `result` is the parsed result line (null if none came),
  // `durationMs` the time from writing the job to that line, `sandbox` the
  // launcher's final report (null without a sandbox).
  async run(job) {
    const started = process.hrtime.bigint();
    this.child.stdin.end(`${JSON.stringify(job)}\n`);
    const line = await Promise.race([this.nextLine(), this.ended.then(() => null)]);
    const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
    const exit = await this.ended;
    return {
      result: line ? JSON.parse(line) : null,
      durationMs,
      exit,
      stderr: this.stderr,
      sandbox: sandboxReport(this.stderr),
    };
  }

  onLine(line) {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve(line);
    } else {
      this.lines.push(line);
    }
  }

  nextLine() {
    if (this.lines.length > 0) return Promise.resolve(this.lines.shift());
    return new Promise((resolve) => { this.waiting = resolve; });
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
