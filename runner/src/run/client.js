'use strict';

// Drives a warm runner the way the server does: start run.js (under
// vouch-sandbox when sandbox options are given), wait for {"ready":true}, hand
// it one job, collect its result line, stderr, exit status and the sandbox's
// final report. Used by the tests and by bench/run_bench.sh.

const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { SANDBOX, ownFolders } = require('./sandbox-launcher');

const BIN = path.join(__dirname, '..', '..', 'bin');

class WarmRunner {
  // Resolves once the runner is ready; rejects if it says or does anything else.
  // runArgs: run.js's own arguments (`--prime-rounds 0`); nodeArgs: node's, before run.js
  // (`--require FILE`); env: the environment, by default this process's. Without the sandbox,
  // memory: { memoryMb, nodeOptions } holds the runner to a run's memory limit as vouch-sandbox
  // does (prlimit's data limit, and NODE_OPTIONS: the heap Node.js is told it has).
  static async start({
    workdir,
    sandboxOptions = null,
    runArgs = [],
    nodeArgs = [],
    env = process.env,
    memory = null,
  }) {
    const runJs = path.join(BIN, 'run.js');
    const node = [process.execPath, ...nodeArgs, runJs, ...runArgs];
    let [file, args] = sandboxOptions
      ? [SANDBOX, [workdir, ...sandboxOptions, ...ownFolders(), '--', ...node]]
      : [node[0], node.slice(1)];
    if (memory && !sandboxOptions) {
      const bytes = memory.memoryMb * 1024 * 1024;
      [file, args] = ['prlimit', [`--data=${bytes}:${bytes}`, '--', ...node]];
      env = { ...env, NODE_OPTIONS: memory.nodeOptions };
    }
    const stdout = pipeForStdout();
    let child;
    try {
      child = spawn(file, args, { cwd: workdir, stdio: ['pipe', stdout.writeFd, 'pipe'], env });
    } finally {
      fs.closeSync(stdout.writeFd);
    }
    const runner = new WarmRunner(child, stdout.reader);
    const first = await runner.nextLine();
    if (first === null || !JSON.parse(first).ready) {
      throw new Error(`runner not ready: ${first}, exit ${JSON.stringify(await runner.ended)}\n${runner.stderr}`);
    }
    return runner;
  }

  constructor(child, stdout) {
    this.child = child;
    this.stderr = '';
    this.lines = [];
    this.waiting = [];
    this.closed = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text) => {
      this.stderr += text;
    });
    readLines(stdout, (line) => {
      if (this.waiting.length > 0) this.waiting.shift()(line);
      else this.lines.push(line);
    });
    const stdoutEnded = new Promise((resolve) => stdout.on('close', resolve));
    const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    this.ended = Promise.all([exited, stdoutEnded]).then(([exit]) => {
      this.closed = true;
      this.waiting.splice(0).forEach((wake) => wake(null));
      return exit;
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

// The runner's stdout as vouchd gives it: a pipe (Node's own 'pipe' is a
// socket pair, which behaves differently when the runner writes a long
// line). A FIFO in a temporary folder, removed once both ends are open:
// { writeFd } for the child, { reader } a stream of the read end.
function pipeForStdout() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-runner-stdout-'));
  try {
    const fifo = path.join(folder, 'stdout');
    const made = spawnSync('mkfifo', ['-m', '600', fifo]);
    if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr || made.error}`);
    const readFd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const writeFd = fs.openSync(fifo, fs.constants.O_WRONLY);
    return { writeFd, reader: new net.Socket({ fd: readFd, readable: true, writable: false }) };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
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
