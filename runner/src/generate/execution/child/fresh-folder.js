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

// The folder of the scenario running now, as process.cwd() spells it (symbolic links resolved),
// or null between scenarios.
let current = null;

// Enters a new folder holding the fixture; returns leave(), which goes back and removes it. The
// code under test may change files in that folder (folder-guard.js), as process.cwd() spells it,
// which is what relative paths resolve against.
function enterFreshFolder() {
  const previous = process.cwd();
  const folder = unguarded(() => {
    const made = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-scenario-'));
    writeFixture(made);
    return made;
  });
  process.chdir(folder);
  current = process.cwd();
  allowChangesIn(current);
  return function leave() {
    current = null;
    allowChangesIn(null);
    process.chdir(previous);
    unguarded(() => fs.rmSync(folder, { recursive: true, force: true, maxRetries: 2 }));
  };
}

function currentFreshFolder() {
  return current;
}

module.exports = { enterFreshFolder, currentFreshFolder };
