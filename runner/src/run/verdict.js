'use strict';

// Decides what a finished Jest run reports: its results, or the reason it
// could not complete.

const { RunError } = require('./run-error');
const { summarize, suiteLoadErrors } = require('./summarize');
const { limitEvidence } = require('./limit-evidence');

// `fileSizeExceeded` is true when this process received SIGXFSZ: the tested
// code wrote past the file size limit, even if it swallowed the error.
function verdict(aggregated, root, { fileSizeExceeded }) {
  if (aggregated.numTotalTestSuites === 0) {
    throw new RunError('no_tests', 'Jest found no test files among the job files');
  }
  const results = summarize(aggregated, root);
  const loadErrors = suiteLoadErrors(aggregated, root);
  const failureMessages = results.tests.filter((test) => test.message).map((test) => test.message);
  const limit = limitEvidence([...loadErrors, ...failureMessages]);
  if (limit) throw new RunError(limit.code, limit.detail, results);
  if (fileSizeExceeded) {
    throw new RunError(
      'file_size_limit',
      'file size limit exceeded: the tested code wrote past the largest file allowed',
      results,
    );
  }
  if (loadErrors.length > 0) {
    throw new RunError('suite_load_failed', loadErrors.join('\n\n'), results);
  }
  return results;
}

module.exports = { verdict };
