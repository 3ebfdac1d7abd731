'use strict';
// The files every scenario's working folder holds (child/fresh-folder.js), and every test's for
// code that reaches the file system (writing/test-writer.js): a text file, a JSON file, a folder
// with a file in it and an empty folder. Code that takes paths then finds something at them: a
// read returns text, a listing names entries, a removal removes, and the path seeds (PATH_SEEDS)
// also name what is not there. Paths are relative: the working folder is a fresh temporary one, and what the tests
// assert (an error's message names the path) is the same in every folder.

const fs = require('node:fs');
const path = require('node:path');

// A path ending in '/' is a folder.
const FIXTURE = [
  { path: 'file.txt', content: 'hello\n' },
  // A JSON document that is also one JSON line of a line-per-record store.
  { path: 'data.json', content: '{"key":"a","val":1}\n' },
  { path: 'folder/a.txt', content: 'a\n' },
  { path: 'empty/' },
];

// Path inputs, most useful first: a text file, a JSON file, a folder, what does not exist, a file
// in a folder, an empty folder, a path whose parent is missing, the working folder itself.
const PATH_SEEDS = ['file.txt', 'data.json', 'folder', 'missing.txt', 'folder/a.txt', 'empty', 'missing/b.txt', '.'];

function writeFixture(folder) {
  for (const entry of FIXTURE) {
    const target = path.join(folder, entry.path);
    if (entry.path.endsWith('/')) fs.mkdirSync(target, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, entry.content);
    }
  }
}

module.exports = { FIXTURE, PATH_SEEDS, writeFixture };
