'use strict';
// The jest.config.js written beside the generated tests. Jest needs a configuration file (or a
// package.json) to find its root, and babel-jest's defaults parse every file as an ES module,
// which rejects sloppy-mode CommonJS; `sourceType: 'unambiguous'` parses each file as what it is.
// ES module sources also need import/export turned into CommonJS, which Jest runs, by
// @babel/plugin-transform-modules-commonjs (resolved from NODE_PATH when the tests run; see
// README.md, "generate").

const CONFIG_PATH = 'jest.config.js';

function jestConfigFile({ esm }) {
  const babelOptions = esm
    ? "{ sourceType: 'unambiguous', plugins: ['@babel/plugin-transform-modules-commonjs'] }"
    : "{ sourceType: 'unambiguous' }";
  const content = [
    '// Written by Vouch for the generated tests.',
    'module.exports = {',
    "  testEnvironment: 'node',",
    `  transform: { '\\\\.[cm]?js$': ['babel-jest', ${babelOptions}] },`,
    '};',
    '',
  ].join('\n');
  return { path: CONFIG_PATH, content };
}

module.exports = { jestConfigFile, CONFIG_PATH };
