'use strict';
// A scenario whose code hands the process's stdout or stderr something Node's streams refuse
// (`process.stderr.write(undefined)`: commander's default error writer called with no text)
// gets Node's ERR_INVALID_ARG_TYPE here and in a run of the suite alone; but when Jest runs
// several test files in one process, its reporter has replaced the streams' `write` with one
// that takes anything, and the same test fails in a user's `npx jest`. The outcome depends on how
// the suite runs, so such a call disturbs its scenario (which never becomes a test); the call
// still throws as Node's would.

function acceptable(chunk) {
  return typeof chunk === 'string' || ArrayBuffer.isView(chunk); // Buffer, typed arrays, DataView
}

// Wraps process.stdout.write and process.stderr.write; report(description) is told of each call
// with a chunk Node refuses.
function installStdioGuard(report) {
  for (const name of ['stdout', 'stderr']) {
    const stream = process[name];
    const original = stream.write;
    stream.write = function write(chunk, ...rest) {
      if (!acceptable(chunk))
        report(`process.${name}.write(${chunk === null ? 'null' : typeof chunk}), which Jest's reporters accept`);
      return original.call(this, chunk, ...rest);
    };
  }
}

module.exports = { installStdioGuard };
