'use strict';

// The stdin/stdout protocol of run.js: one job line in, JSON lines out.

const fs = require('node:fs');

// stdout carries protocol lines and nothing else. The tested code runs in
// this process, so anything it (or Jest) writes through process.stdout is
// sent to stderr instead; only the returned function writes to stdout.
//
// Each line is written whole, on descriptor 1, before the call returns.
// Through process.stdout, a line longer than the pipe holds (a suite of a
// few hundred tests' names) was cut off when the process exited right after
// it: Node makes the pipe non-blocking and queues what does not fit. And
// when descriptor 1 is no longer the pipe run.js started with (the tested
// code closed it, or opened a file in its place), the call throws a
// StdoutLost instead of writing the line somewhere else.
function reserveStdout() {
  const started = identity(1);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  return (message) => {
    if (identity(1) !== started) {
      throw new StdoutLost("the tested code closed or replaced the runner's stdout (descriptor 1)");
    }
    writeAll(1, `${JSON.stringify(message)}\n`);
  };
}

class StdoutLost extends Error {}

// What an open descriptor is (device, inode, type and mode), or null when it
// is closed. With the type, a file opened in place of a pipe whose inode
// number was freed and given to it still differs.
function identity(fd) {
  try {
    const { dev, ino, mode } = fs.fstatSync(fd);
    return `${dev}:${ino}:${mode}`;
  } catch {
    return null;
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

function writeAll(fd, text) {
  const bytes = Buffer.from(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset);
    } catch (error) {
      // The pipe is full: the reader has not caught up yet.
      if (error.code !== 'EAGAIN') throw new StdoutLost(`the result could not be written: ${error.message}`);
      Atomics.wait(pause, 0, 0, 1);
    }
  }
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

module.exports = { reserveStdout, readLine, StdoutLost };
