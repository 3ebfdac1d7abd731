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

// Returns { code, fileCoverage } where fileCoverage is istanbul's initial (all-zero) coverage.
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
  return { code, fileCoverage };
}

module.exports = { instrumentSource };
