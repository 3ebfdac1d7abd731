'use strict';

// Writes a job's files into the run's work folder.

const fs = require('node:fs');
const path = require('node:path');

// Paths were validated by parseJob (relative, no `..`). The `wx` flag
// refuses to write through anything already there, including a symlink, so
// a path can never be redirected outside the folder.
function writeFiles(root, files) {
  for (const file of files) {
    const target = path.join(root, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content, { flag: 'wx' });
  }
}

module.exports = { writeFiles };
