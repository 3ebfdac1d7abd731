'use strict';

// Where Node's own resolver looks for bare package names during a run.
//
// Two resolvers are at work in run.js. The tested code's `require` goes
// through Jest's resolver, which sees the job's dependencies (nodePath) via
// the `modulePaths` option and nothing of the runner's own packages. The
// toolchain goes through Node's resolver: Babel loading the plugins that a
// job's babel.config.js names (the generator may emit one for ES modules),
// and jest.config.js requiring its helpers. Those names are resolved from
// the work folder, which has no node_modules, so Node is told to look in the
// job's dependencies first and then in the runner's own packages.
//
// Jest's resolver reads NODE_PATH once, when it is loaded, and would put it
// ahead of `modulePaths`. forgetNodePath() therefore runs before Jest is
// loaded, and useNodePath() only once it is.

const Module = require('node:module');
const path = require('node:path');

const RUNNER_PACKAGES = path.join(__dirname, '..', '..', 'node_modules');

function forgetNodePath() {
  delete process.env.NODE_PATH;
  Module._initPaths();
}

function useNodePath(jobNodePath) {
  process.env.NODE_PATH = [jobNodePath, RUNNER_PACKAGES].filter(Boolean).join(path.delimiter);
  // Node reads NODE_PATH at start-up; this (long-standing, if underscored)
  // call makes it read the variable again.
  Module._initPaths();
}

module.exports = { forgetNodePath, useNodePath };
