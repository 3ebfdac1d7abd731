'use strict';

// Recognises sandbox limits that do not kill the run.
//
// The process, file size and (off-heap) memory limits make a system call
// fail instead of killing the process: the tested code gets an error, a test
// fails, and the run completes. These patterns find such errors in the
// failure messages, so the run is reported as stopped by the limit rather
// than as an ordinary test failure. Limits that kill the process (CPU time,
// wall time, JavaScript heap) are reported by the sandbox launcher instead.

const SIGNS = [
  {
    code: 'process_limit',
    pattern: /\bspawn(?:Sync)?\b.*\bEAGAIN\b|\bfork\b.*(?:Resource temporarily unavailable|EAGAIN)|Cannot fork/,
    detail: 'process limit reached: the tested code could not start a process',
  },
  {
    code: 'file_size_limit',
    pattern: /\bEFBIG\b/,
    detail: 'file size limit exceeded: a write went past the largest file allowed',
  },
  {
    code: 'memory_limit',
    pattern: /Array buffer allocation failed|\bENOMEM\b/,
    detail: 'memory limit exceeded: an allocation outside the JavaScript heap failed',
  },
];

// Returns {code, detail} for the first limit a message shows, or null.
function limitEvidence(messages) {
  for (const sign of SIGNS) {
    const line = messages.flatMap((message) => message.split('\n')).find((candidate) => sign.pattern.test(candidate));
    if (line) return { code: sign.code, detail: `${sign.detail} (${line.trim()})` };
  }
  return null;
}

module.exports = { limitEvidence };
