'use strict';

// run.js: a warm, single-use Jest runner. See "## run" in runner/README.md.
//
// It loads and primes Jest, says {"ready":true}, takes ONE job on stdin,
// runs it in the current folder, prints ONE result line and exits.

const { reserveStdout, readLine } = require('./protocol');
const { RunError } = require('./run-error');
const { parseJob } = require('./job');
const { writeFiles } = require('./workspace');
const { primeJest } = require('./prime');
const { runJest } = require('./run-jest');
const { verdict } = require('./verdict');
const { useNodePath } = require('./node-resolution');
const { cacheContextCompiles } = require('./context-code-cache');
const { saveModuleCodeCache } = require('./module-code-cache');
const { useLazyBabelJest } = require('./lazy-babel-jest');

// `options`: run.js's command line (src/run/run-options.js), or the Error
// that says what is wrong with it.
async function main(options) {
  const send = reserveStdout();
  const finish = finisher(send);
  if (options instanceof Error) {
    finish(new RunError('runner_start_failed', options.message));
    return;
  }
  // Jest's own command line sets this; configs and tested code may read it.
  process.env.NODE_ENV ??= 'test';

  cacheContextCompiles();
  useLazyBabelJest();
  try {
    await primeJest(process.cwd(), options.primeRounds);
  } catch (error) {
    finish(new RunError('runner_start_failed', errorText(error)));
    return;
  }
  // Before any job: only the warm-up has run (see module-code-cache.js). A
  // runner without it only loads slower, so a failure is only told.
  if (options.saveCodeCache) {
    try {
      saveModuleCodeCache(options.saveCodeCache);
    } catch (error) {
      process.stderr.write(`the code cache was not written: ${errorText(error)}\n`);
    }
  }
  let fileSizeExceeded = false;
  process.on('SIGXFSZ', () => {
    fileSizeExceeded = true;
  });
  send({ ready: true });

  const line = await readLine(process.stdin);
  const started = Date.now();
  try {
    const job = parseJob(line);
    useNodePath(job.nodePath);
    setTimeout(() => {
      finish(new RunError('wall_time_limit', `wall time limit exceeded: the run took longer than ${job.wallMs} ms`));
    }, job.wallMs);
    writeJobFiles(process.cwd(), job.files);
    const aggregated = await runJest(process.cwd(), job);
    // A signal reaches its listener only in the event loop's poll phase,
    // which Jest's last steps may never have passed through.
    await new Promise((resolve) => setImmediate(resolve));
    const results = verdict(aggregated, process.cwd(), { fileSizeExceeded });
    finish({ ok: true, results, durationMs: Date.now() - started });
  } catch (error) {
    finish(error instanceof RunError ? error : new RunError('run_failed', errorText(error)));
  }
}

// Returns finish(resultOrError): sends the one result line and exits,
// 0 for {"ok":true}, 1 for {"ok":false}. Whatever else ends the process
// (the tested code calling process.exit, an error thrown outside any test,
// which node prints on stderr) still produces a result line. When the line
// cannot be sent (the tested code closed stdout), stderr's last line says
// so and the exit code is 1: never 0 without a result.
function finisher(send) {
  let finished = false;
  const finish = (outcome) => {
    if (finished) return;
    finished = true;
    const error = outcome instanceof RunError ? outcome : null;
    try {
      send(error ? errorMessage(error) : outcome);
    } catch (lost) {
      process.stderr.write(`run.js: no result line: ${lost.message}\n`);
      process.exit(1);
    }
    process.exit(error ? 1 : 0);
  };
  process.on('exit', (code) => {
    finish(new RunError('unexpected_exit', `the run ended early with exit code ${code}`));
  });
  return finish;
}

function errorMessage(error) {
  return {
    ok: false,
    error: { code: error.code, detail: error.message },
    ...(error.results && { results: error.results }),
  };
}

function writeJobFiles(root, files) {
  try {
    writeFiles(root, files);
  } catch (error) {
    throw new RunError('invalid_job', `could not write the job files: ${error.message}`);
  }
}

function errorText(error) {
  return error instanceof Error ? error.stack || error.message : String(error);
}

module.exports = { main };
