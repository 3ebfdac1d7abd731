'use strict';

// Parses and validates the one job that run.js receives on stdin.

const path = require('node:path');
const { RunError } = require('./run-error');

const DEFAULT_TEST_TIMEOUT_MS = 5000;
const DEFAULT_WALL_MS = 60000;

function parseJob(text) {
  let job;
  try {
    job = JSON.parse(text);
  } catch (error) {
    throw invalid(`the job is not JSON: ${error.message}`);
  }
  if (!isPlainObject(job)) throw invalid('the job must be a JSON object');
  return {
    files: parseFiles(job.files),
    testTimeoutMs: parsePositiveInteger(job, 'testTimeoutMs', DEFAULT_TEST_TIMEOUT_MS),
    wallMs: parsePositiveInteger(job, 'wallMs', DEFAULT_WALL_MS),
    nodePath: parseNodePath(job.nodePath),
  };
}

function parseFiles(files) {
  if (!Array.isArray(files) || files.length === 0) {
    throw invalid('files must be a non-empty array');
  }
  const seen = new Set();
  return files.map((file, index) => {
    if (!isPlainObject(file) || typeof file.path !== 'string' || typeof file.content !== 'string') {
      throw invalid(`files[${index}] must be {path: string, content: string}`);
    }
    const relative = checkRelativePath(file.path, `files[${index}].path`);
    if (seen.has(relative)) throw invalid(`files[${index}].path repeats ${relative}`);
    seen.add(relative);
    return { path: relative, content: file.content };
  });
}

// A file path must stay inside the work folder: relative, no `..` segment,
// no NUL. Backslashes are refused rather than guessed at.
function checkRelativePath(value, field) {
  if (value === '' || value.includes('\0') || value.includes('\\')) {
    throw invalid(`${field} is not a usable path`);
  }
  if (path.posix.isAbsolute(value)) throw invalid(`${field} must be relative: ${value}`);
  if (value.split('/').includes('..')) throw invalid(`${field} must not contain "..": ${value}`);
  const normalized = path.posix.normalize(value);
  if (normalized === '.' || normalized.endsWith('/')) throw invalid(`${field} must name a file: ${value}`);
  return normalized;
}

function parsePositiveInteger(job, field, fallback) {
  const value = job[field];
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw invalid(`${field} must be a positive integer`);
  return value;
}

function parseNodePath(value) {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !path.isAbsolute(value)) {
    throw invalid('nodePath must be an absolute folder path');
  }
  return path.normalize(value);
}

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(detail) {
  return new RunError('invalid_job', detail);
}

module.exports = { parseJob };
