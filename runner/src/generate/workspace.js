'use strict';
// The temporary folders of one generation job: `exec` holds the submitted files for the code
// under test to run beside, `work` the folders in which verification runs the tests, `elsewhere`
// the home and temporary folders of the other environment (execution/other-environment.js).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

class Workspace {
  constructor() {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), 'vouch-generate-'));
    this.execDir = path.join(this.root, 'exec');
    this.workDir = path.join(this.root, 'work');
    this.elsewhere = { home: path.join(this.root, 'elsewhere', 'home'), tmp: path.join(this.root, 'elsewhere', 'tmp') };
    for (const dir of [this.execDir, this.workDir, this.elsewhere.home, this.elsewhere.tmp])
      fs.mkdirSync(dir, { recursive: true });
  }

  // What the code under test must never change (execution/child/folder-guard.js): the package's
  // files, the verification runs' folders, the other environment's home. (Its temporary folder is
  // the code's to use.)
  protectedFolders() {
    return [this.execDir, this.workDir, this.elsewhere.home];
  }

  execPath(relativePath) {
    return path.join(this.execDir, ...relativePath.split('/'));
  }

  writeExecFiles(files) {
    for (const file of files) {
      const target = this.execPath(file.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.content);
    }
  }

  remove() {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

module.exports = { Workspace };
