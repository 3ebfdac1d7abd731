'use strict';
// Each scenario runs in an empty temporary folder of its own as its working folder, as each test
// of code that writes files does (writing/test-writer.js, `freshFolder`): a relative path it
// writes (`new Dirty('abc')`) lands there, not in the package's folder nor the generator's, and
// no scenario sees the files of another. The folder is made in os.tmpdir(), which is the other
// environment's in the runs made there.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// Enters a new empty folder; returns leave(), which goes back and removes it.
function enterFreshFolder() {
  const previous = process.cwd();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-scenario-'));
  process.chdir(folder);
  return function leave() {
    process.chdir(previous);
    fs.rmSync(folder, { recursive: true, force: true, maxRetries: 2 });
  };
}

module.exports = { enterFreshFolder };
