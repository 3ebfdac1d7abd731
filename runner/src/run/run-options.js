'use strict';

// run.js's command line. Kept apart from the modules that load Jest:
// bin/run.js reads it before anything else is loaded (src/run/tiering.js,
// src/run/module-code-cache.js).
//
//   --prime-rounds N       rounds of the warm-up suite before {"ready":true}
//                          (src/run/prime.js), 0 to ROUNDS; ROUNDS by default
//   --code-cache FILE      V8's code cache of the runner's modules to compile
//                          them from, written by another runner's
//                          --save-code-cache (src/run/module-code-cache.js)
//   --save-code-cache FILE after the warm-up, before {"ready":true}, write
//                          that cache to FILE; needs at least one round
// A relative FILE is in the current folder, the work folder.

const path = require('node:path');

// The first round loads Jest; the next ones let V8 optimise what the first
// only loaded. Four rounds of this suite made the job fastest; more rounds
// gained nothing.
const ROUNDS = 4;

const NAMES = {
  '--prime-rounds': 'primeRounds',
  '--code-cache': 'codeCache',
  '--save-code-cache': 'saveCodeCache',
};

// { primeRounds, codeCache, saveCodeCache } from the arguments; throws on one
// it does not know, a missing or bad value.
function runOptionsOf(argv) {
  const given = {};
  for (let at = 0; at < argv.length; at += 2) {
    const name = NAMES[argv[at]];
    if (!name) throw new Error(`run.js does not know the argument ${JSON.stringify(argv[at])}`);
    if (at + 1 >= argv.length) throw new Error(`${argv[at]} needs a value`);
    given[name] = argv[at + 1];
  }
  const options = {
    primeRounds: given.primeRounds === undefined ? ROUNDS : Number(given.primeRounds),
    codeCache: given.codeCache === undefined ? null : path.resolve(given.codeCache),
    saveCodeCache: given.saveCodeCache === undefined ? null : path.resolve(given.saveCodeCache),
  };
  if (!Number.isInteger(options.primeRounds) || options.primeRounds < 0 || options.primeRounds > ROUNDS) {
    throw new Error(`--prime-rounds must be an integer from 0 to ${ROUNDS}`);
  }
  if (options.saveCodeCache && options.primeRounds === 0) {
    throw new Error('--save-code-cache needs --prime-rounds of at least 1: the cache is taken after the warm-up');
  }
  return options;
}

module.exports = { runOptionsOf, ROUNDS };
