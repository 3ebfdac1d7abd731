// Prints npm-package-arg's type for each "name@spec" given on stdin as a JSON
// array of [name, spec] pairs, as a JSON array: npm's own reading of a spec.
'use strict';
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const npmRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const npa = require(path.join(npmRoot, 'npm', 'node_modules', 'npm-package-arg'));
const pairs = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const types = pairs.map(([name, spec]) => {
  try {
    return npa.resolve(name, spec, '/nonexistent-base').type;
  } catch (error) {
    return `invalid: ${error.code ?? error.message}`;
  }
});
process.stdout.write(`${JSON.stringify(types)}\n`);
