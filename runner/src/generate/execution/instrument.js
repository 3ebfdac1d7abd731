'use strict';
// Instruments a source file for coverage the way Jest does (babel with istanbul's program visitor,
// so statement, branch and function ids match what `jest --coverage` reports) in the same babel
// pass as the shared transform (src/transform.js) that the emitted jest.config.js makes
// babel-jest apply: TypeScript's types removed, import/export turned into CommonJS.

const babel = require('@babel/core');
const { programVisitor } = require('istanbul-lib-instrument');
const { isTypeScript, transformOptions, loadedOptions } = require('../../transform');

function coveragePlugin(filename, onCoverage) {
  return ({ types }) => {
    let visitor = null;
    return {
      visitor: {
        Program: {
          enter(path) {
            visitor = programVisitor(types, filename, {});
            visitor.enter(path);
            path.scope.crawl();
          },
          exit(path) {
            onCoverage(visitor.exit(path).fileCoverage);
          },
        },
      },
    };
  };
}

// The function istanbul defines to hold a file's counters (`function cov_1xqe64bgy0() {…}`); the
// functions of the file name it in theirs (`cov_1xqe64bgy0().f[3]++`, execution/child/shape.js).
const COUNTER_FUNCTION = /\bfunction (cov_\w+)\(\)/;

// Returns { code, fileCoverage, counter }: fileCoverage is istanbul's initial (all-zero) coverage,
// counter the name of the function that holds the file's counters (null if none was written).
function instrumentSource(filename, source, { esm }) {
  let fileCoverage = null;
  const transform = loadedOptions(transformOptions({ esm, typescript: isTypeScript(filename) }));
  const { code } = babel.transformSync(source, {
    ...transform,
    filename,
    babelrc: false,
    configFile: false,
    compact: false,
    plugins: [
      coveragePlugin(filename, (coverage) => {
        fileCoverage = coverage;
      }),
      ...transform.plugins,
    ],
  });
  const counter = COUNTER_FUNCTION.exec(code);
  return { code, fileCoverage, counter: counter ? counter[1] : null };
}

module.exports = { instrumentSource };
