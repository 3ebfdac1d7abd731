'use strict';
// The per-file problems a result reports. Codes are stable words the server relies on.

const PROBLEM_CODES = [
  'not_javascript',
  'syntax_error',
  'missing_module',
  'load_error',
  'timeout',
  'no_tests',
  'internal_error',
];

function problem(path, code, message, location = {}) {
  if (!PROBLEM_CODES.includes(code)) throw new Error(`unknown problem code ${code}`);
  const entry = { path, code, message };
  if (location.line !== undefined) entry.line = location.line;
  if (location.column !== undefined) entry.column = location.column;
  if (location.module !== undefined) entry.module = location.module;
  return entry;
}

module.exports = { problem };
