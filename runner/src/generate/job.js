'use strict';
// Reads and checks the one JSON job that bin/generate.js receives on stdin.

const DEFAULT_TIME_BUDGET_MS = 20000;
const DEFAULT_THRESHOLD = 80;

class JobError extends Error {}

function parseJob(text) {
  let job;
  try {
    job = JSON.parse(text);
  } catch (error) {
    throw new JobError(`job is not valid JSON: ${error.message}`);
  }
  if (job === null || typeof job !== 'object' || Array.isArray(job)) throw new JobError('job must be a JSON object');
  if (!Array.isArray(job.files) || job.files.length === 0) throw new JobError('files must be a non-empty array');
  const seen = new Set();
  const files = job.files.map((file, index) => {
    if (file === null || typeof file !== 'object') throw new JobError(`files[${index}] must be an object`);
    if (typeof file.path !== 'string' || file.path === '')
      throw new JobError(`files[${index}].path must be a non-empty string`);
    if (typeof file.content !== 'string') throw new JobError(`files[${index}].content must be a string`);
    const path = normalizePath(file.path);
    if (path === null) throw new JobError(`files[${index}].path must be relative and stay inside the job folder`);
    if (seen.has(path)) throw new JobError(`files[${index}].path repeats ${path}`);
    seen.add(path);
    return { path, content: file.content };
  });
  const framework = job.framework ?? 'jest';
  if (framework !== 'jest') throw new JobError(`framework ${JSON.stringify(framework)} is not supported; use "jest"`);
  const nodePath = job.nodePath ?? undefined;
  if (nodePath !== undefined && (typeof nodePath !== 'string' || !nodePath.startsWith('/'))) {
    throw new JobError('nodePath must be an absolute path to the node_modules folder of the installed dependencies');
  }
  return {
    files,
    framework,
    ...(nodePath ? { nodePath } : {}),
    threshold: numberInRange(job.threshold, 'threshold', 0, 100, DEFAULT_THRESHOLD),
    timeBudgetMs: numberInRange(job.timeBudgetMs, 'timeBudgetMs', 1, 10 * 60 * 1000, DEFAULT_TIME_BUDGET_MS),
    // The configured budget that timeBudgetMs scales with the sources sent: the budget used is
    // this scaled by the sources tested (budget.js, testedBudgetMs).
    ...(job.baseBudgetMs != null
      ? { baseBudgetMs: numberInRange(job.baseBudgetMs, 'baseBudgetMs', 1, 10 * 60 * 1000) }
      : {}),
    // The wall time the job may take at most on a busy machine, where its budget stretches
    // (budget-clock.js); without it the budget stretches to 1.5 times its length at most.
    ...(job.wallLimitMs != null
      ? { wallLimitMs: numberInRange(job.wallLimitMs, 'wallLimitMs', 1, 20 * 60 * 1000) }
      : {}),
    // The wall time by which the answer must be written, verification included (vouchd's sandbox
    // ends the generator soon after); verification stops in time for it.
    ...(job.deadlineMs != null ? { deadlineMs: numberInRange(job.deadlineMs, 'deadlineMs', 1, 30 * 60 * 1000) } : {}),
    // The run path's limits, which verification's runs are held to (run-suite.js).
    ...(job.runLimits != null ? { runLimits: runLimitsOf(job.runLimits) } : {}),
  };
}

// { memoryMb, nodeOptions }: the data limit of a run, and the NODE_OPTIONS that vouch-sandbox gives
// Node.js under it (a heap below the limit).
function runLimitsOf(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new JobError('runLimits must be an object');
  const memoryMb = numberInRange(value.memoryMb, 'runLimits.memoryMb', 16, 1024 * 1024);
  if (!Number.isInteger(memoryMb)) throw new JobError('runLimits.memoryMb must be an integer');
  const nodeOptions = value.nodeOptions ?? '';
  if (typeof nodeOptions !== 'string') throw new JobError('runLimits.nodeOptions must be a string');
  return { memoryMb, nodeOptions };
}

function numberInRange(value, name, min, max, fallback) {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new JobError(`${name} must be a number from ${min} to ${max}`);
  }
  return value;
}

// Paths use forward slashes and may not be absolute or climb out of the job folder with `..`.
function normalizePath(rawPath) {
  const path = rawPath.replace(/\\/g, '/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\0')) return null;
  const parts = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  return parts.length ? parts.join('/') : null;
}

module.exports = { parseJob, JobError };
