'use strict';
// Instruments a source file for coverage the way Jest does (babel with istanbul's program visitor,
// so statement, branch and function ids match what `jest --coverage` reports) and, for ES
// modules, converts import/export to CommonJS in the same babel pass, as the emitted
// jest.config.js makes babel-jest do.

const babel = require('@babel/core');
const { programVisitor } = require('istanbul-lib-instrument');
const modulesToCommonJs = require('@babel/plugin-transform-modules-commonjs');

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
  const plugins = [coveragePlugin(filename, (coverage) => { fileCoverage = coverage; })];
  if (esm) plugins.push(modulesToCommonJs);
  const { code } = babel.transformSync(source, {
    filename,
    babelrc: false,
    configFile: false,
    sourceType: 'unambiguous',
    compact: false,
    plugins,
  });
  return { code, fileCoverage };
}

module.exports = { instrumentSource };
