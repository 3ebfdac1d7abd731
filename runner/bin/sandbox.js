#!/usr/bin/env node
'use strict';

// Runs a command in a sandbox with resource limits and reports how it ended.
// Usage and protocol: runner/README.md, "## sandbox".

require('../src/run/sandbox/main').main(process.argv.slice(2));
