#!/usr/bin/env node
'use strict';
// Vouch's test generator. Reads ONE JSON job on stdin, writes ONE JSON result on stdout;
// diagnostics go to stderr.
//
// Job:
//   { "files": [{ "path": "src/math.js", "content": "..." }],
//     "framework": "jest",        // the only framework; default "jest"
//     "threshold": 80,            // coverage target in percent, 0-100; default 80
//     "timeBudgetMs": 20000,      // whole job, Jest verification included; default 20000
//     "wallLimitMs": 40000,       // wall time the budget may stretch to on a busy machine;
//                                 // default 1.5 × timeBudgetMs (src/generate/budget-clock.js)
//     "deadlineMs": 70000 }       // wall time by which the answer must be written, verification
//                                 // included; both count from this process's start
// Paths are relative, use "/", and may not climb out of the job folder.
//
// Result (exit code 0, also when some files have problems):
//   { "files": [{ "path": "src/__tests__/math.test.js", "content": "..." }, { "path": "jest.config.js", ... }],
//     "summary": {
//       "functionsFound": N,   // callable exports: functions, classes and class members
//       "testsGenerated": N,   // tests in the candidate suite handed to Jest
//       "testsKept": N,        // tests in the final suite: each passed in at least two Jest runs
//       "coverage": { "statements": pct, "branches": pct, "functions": pct, "lines": pct },
//       "perFile": [{ "path": "src/math.js", "exports": ["math.add"], "testsKept": N, "coverage": {...} | null }],
//       "problems": [{ "path": "src/x.ts",
//                      "code": "not_javascript|syntax_error|missing_module|load_error|timeout|no_tests|internal_error",
//                      "message": "...", "line": 3, "column": 7, "module": "lodash" }],
//       "package": { "name", "version", "type", "entryPoints": [...], "programs": [...],
//                    "targets": { "tested", "found", "cap" } },
//       "skipped": [{ "path": "test/test.js", "reason": "own_test", "message": "..." }] },
//     "sources": ["index.js", "package.json"] }   // the submitted files the suite runs with
// Coverage is what `jest --coverage` measured on the final suite (0-100, Jest's rounding) over every
// submitted JavaScript file, tested or not, as bin/run.js counts it; perFile coverage is null for a
// file Jest could not instrument. `line`/`column` (1-based) come with syntax errors, `module` with
// missing modules. The tests for `a/b.js` are at `a/__tests__/b.test.js`; jest.config.js comes
// with them unless the job brought its own (where the root package.json has a "jest" key, that
// package.json comes instead, the key set to the configuration, and is not among `sources`);
// files is empty when no test could be kept. See
// README.md, "generate", for how to run the result.
//
// With --progress, progress lines come before the result, one per phase as it starts:
//   { "progress": { "phase": "analysing|loading|searching|shrinking|mutating|verifying|writing",
//                   "filesDone": N, "filesTotal": N, "testsKept": N } }
// (src/generate/pipeline.js says what the counts mean); the result is the line without "progress".
//
// A malformed job exits 1 with { "error": "..." } on stdout; an internal failure exits 2 with
// { "error": "generation failed: ..." }.

const { parseJob, JobError } = require('../src/generate/job');
const { generateTests } = require('../src/generate/pipeline');

function readStdin() {
  return new Promise((resolve, reject) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

const reportsProgress = process.argv.slice(2).includes('--progress');

function progress(state) {
  process.stdout.write(`${JSON.stringify({ progress: state })}\n`);
}

function log(message) {
  process.stderr.write(`generate: ${message}\n`);
}

async function main() {
  let job;
  try {
    job = parseJob(await readStdin());
  } catch (error) {
    if (!(error instanceof JobError)) throw error;
    process.stdout.write(`${JSON.stringify({ error: error.message })}\n`);
    process.exitCode = 1;
    return;
  }
  // The job's wall limit and deadline count from this process's start: the sandbox's wall limit
  // counts from the job's first byte on stdin, sent while Node still starts, so never earlier.
  const startedAt = Math.round(performance.timeOrigin);
  const result = await generateTests(job, { log, startedAt, ...(reportsProgress && { progress }) });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  log(error.stack || String(error));
  process.stdout.write(`${JSON.stringify({ error: `generation failed: ${error.message}` })}\n`);
  process.exitCode = 2;
});
