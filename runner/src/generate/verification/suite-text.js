'use strict';
// The text of a generated test file: a module's tests (writing/test-writer.js) or a program's
// (program/cli-test-writer.js), by the suite's spec.

const { writeTestFile } = require('../writing/test-writer');
const { writeProgramTest } = require('../program/cli-test-writer');

function suiteText(suite) {
  return suite.spec.program ? writeProgramTest(suite.spec, suite.cases) : writeTestFile(suite.spec, suite.cases);
}

module.exports = { suiteText };
