'use strict';
// Whether file-system requests the code under test started are still running. They complete on
// libuv's thread pool, later than the next turn of the loop, and later still on a busy machine.

function pendingIo() {
  return process.getActiveResourcesInfo().some((name) => name.startsWith('FS') || name.startsWith('FileHandle'));
}

module.exports = { pendingIo };
