#!/usr/bin/env node
'use strict';

// Runs one Jest job in the current folder: prints {"ready":true}, reads one
// JSON job on stdin, prints one JSON result. Protocol: runner/README.md, "## run".

// Before anything loads Jest: see src/run/node-resolution.js.
require('../src/run/node-resolution').forgetNodePath();
// Before any of Jest's code runs: see src/run/tiering.js.
require('../src/run/tiering').chooseTiering(process.argv.slice(2));
require('../src/run/main').main();
