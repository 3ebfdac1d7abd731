#!/usr/bin/env node
'use strict';

// Runs one Jest job in the current folder: prints {"ready":true}, reads one
// JSON job on stdin, prints one JSON result. Protocol: runner/README.md, "## run".

// Before anything loads Jest: see src/run/node-resolution.js.
require('../src/run/node-resolution').forgetNodePath();

let options;
try {
  options = require('../src/run/run-options').runOptionsOf(process.argv.slice(2));
} catch (error) {
  options = error; // main() reports it
}
if (!(options instanceof Error)) {
  // Before any of Jest's code is compiled or run: see src/run/tiering.js and
  // src/run/module-code-cache.js.
  require('../src/run/tiering').chooseTiering(options);
  require('../src/run/module-code-cache').useModuleCodeCache(options);
}
require('../src/run/main').main(options);
