'use strict';
// The environment variables the code under test sees, during generation as on the run side:
// bin/sandbox.js gives a run only PATH, HOME, TMPDIR, LANG=C.UTF-8 (and NODE_OPTIONS), and Jest
// sets NODE_ENV=test. Code that reads the locale, the time zone or NODE_ENV then behaves the
// same when the tests are generated as when they are run.

function testEnvironment() {
  const env = { PATH: process.env.PATH || '/usr/bin:/bin', LANG: 'C.UTF-8', NODE_ENV: 'test' };
  if (process.env.HOME) env.HOME = process.env.HOME;
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

module.exports = { testEnvironment };
