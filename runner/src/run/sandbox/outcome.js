'use strict';

// Says how the sandboxed command ended: the launcher's final stderr line
// ({"sandbox":{...}}) and its exit code. Protocol: runner/README.md, "## sandbox".

const os = require('node:os');

const EXIT_CODES = {
  cpu_time_limit: 201,
  wall_time_limit: 202,
  memory_limit: 203,
  file_size_limit: 204,
  sandbox_failed: 210,
};

// What node (and so V8) prints before aborting for lack of memory, when an
// allocation meets RLIMIT_DATA (or the heap meets --max-old-space-size).
const OUT_OF_MEMORY = /JavaScript heap out of memory|Fatal process out of memory|Allocation failed - process out of memory|std::bad_alloc/;

// `exit` is {code, signal} of the sandboxed command; bwrap passes a death by
// signal N on as exit code 128 + N.
function describeOutcome({ exit, viaBwrap, wallExpired, stderrTail, limits }) {
  if (wallExpired) {
    return limit('wall_time_limit', `wall time limit exceeded (${limits.wallMs} ms)`);
  }
  const signal = exit.signal ?? (viaBwrap && exit.code > 128 ? signalName(exit.code - 128) : null);
  if (signal === 'SIGXCPU') {
    return limit('cpu_time_limit', `cpu time limit exceeded (${limits.cpuSeconds} s)`);
  }
  if (signal === 'SIGXFSZ') {
    return limit('file_size_limit', `file size limit exceeded (${limits.maxFileMb} MB)`);
  }
  if (signal === 'SIGABRT' && OUT_OF_MEMORY.test(stderrTail)) {
    return limit('memory_limit', `memory limit exceeded (${limits.memoryMb} MB)`);
  }
  if (signal) {
    return { report: { status: 'signaled', signal }, exitCode: 128 + os.constants.signals[signal] };
  }
  return { report: { status: 'exited', code: exit.code }, exitCode: exit.code };
}

function sandboxFailed(detail) {
  return { report: { status: 'error', code: 'sandbox_failed', detail }, exitCode: EXIT_CODES.sandbox_failed };
}

function limit(code, detail) {
  return { report: { status: 'limit', code, detail }, exitCode: EXIT_CODES[code] };
}

function signalName(number) {
  return Object.keys(os.constants.signals).find((name) => os.constants.signals[name] === number) ?? null;
}

module.exports = { describeOutcome, sandboxFailed, EXIT_CODES };
