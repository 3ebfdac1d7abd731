'use strict';
// Each scenario runs in a temporary folder of its own as its working folder, as each test of code
// that reaches the file system does (writing/test-writer.js, `freshFolder`): a relative path it
// writes (`new Dirty('abc')`) lands there, not in the package's folder nor the generator's, and
// no scenario sees the files of another. The folder holds the fixture's few files
// (../folder-fixture.js), which the path seeds name. The folder is made in os.tmpdir(), which is the other
// environment's in the runs made there.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { writeFixture } = require('../folder-fixture');
const { allowChangesIn, unguarded } = require('./folder-guard');

// Enters a new folder holding the fixture; returns leave(), which goes back and removes it. The
// code under test may change files in that folder only (folder-guard.js).
function enterFreshFolder() {
  const previous = process.cwd();
  const folder = unguarded(() => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-scenario-'));
    writeFixture(made);
    return made;
  });
  process.chdir(folder);
  allowChangesIn(folder);
  return function leave() {
    allowChangesIn(null);
    process.chdir(previous);
    unguarded(() => fs.rmSync(folder, { recursive: true, force: true, maxRetries: 2 }));
  };
}

module.exports = { enterFreshFolder };
