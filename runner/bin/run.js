#!/usr/bin/env node
'use strict';

// Runs one Jest job in the current folder: prints {"ready":true}, reads one
// JSON job on stdin, prints one JSON result. Protocol: runner/README.md, "## run".

// Before anything loads Jest: see src/run/node-resolution.js.
require('../src/run/node-resolution').forgetNodePath();
require('../src/run/main').main();
