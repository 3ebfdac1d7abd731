'use strict';

// The stdin/stdout protocol of run.js: one job line in, JSON lines out.

// stdout carries protocol lines and nothing else. The tested code runs in
// this process, so anything it (or Jest) writes through process.stdout is
// sent to stderr instead; only the returned function writes to stdout.
// Node writes to pipes synchronously on Linux, so a line is complete before
// the caller exits.
function reserveStdout() {
  const writeStdout = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  return (message) => writeStdout(`${JSON.stringify(message)}\n`);
}

// Resolves with the first line of the stream (or all of it, at end of input).
function readLine(stream) {
  return new Promise((resolve, reject) => {
    let text = '';
    const finish = () => {
      stream.off('data', onData);
      stream.off('end', finish);
      stream.off('error', reject);
      stream.pause();
      resolve(text);
    };
    const onData = (chunk) => {
      text += chunk;
      const newline = text.indexOf('\n');
      if (newline !== -1) {
        text = text.slice(0, newline);
        finish();
      }
    };
    stream.setEncoding('utf8');
    stream.on('data', onData);
    stream.on('end', finish);
    stream.on('error', reject);
  });
}

module.exports = { reserveStdout, readLine };
