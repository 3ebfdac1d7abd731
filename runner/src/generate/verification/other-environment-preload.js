'use strict';
// Loaded with `node --require` before bin/run.js in the verification round that runs the suite as
// another user on another machine (run-suite.js): enters execution/other-environment.js for the
// whole process, with the home and temporary folders named by VOUCH_OTHER_HOME and
// VOUCH_OTHER_TMP (removed from the environment, so the tests do not see them). Its mock functions
// have only the members every supported Jest version gives them, and test files' globals only
// the symbols every version gives them (other-jest-mocks.js).

const { enterOtherEnvironment } = require('../execution/other-environment');
const { useCommonMocks, useCommonGlobals } = require('./other-jest-mocks');

const home = process.env.VOUCH_OTHER_HOME;
const tmp = process.env.VOUCH_OTHER_TMP;
delete process.env.VOUCH_OTHER_HOME;
delete process.env.VOUCH_OTHER_TMP;
if (home && tmp) enterOtherEnvironment({ home, tmp });
useCommonMocks(require('jest-mock').ModuleMocker);
useCommonGlobals(require('jest-environment-node').TestEnvironment);
