'use strict';
// The jest.config.js written beside the generated tests. Jest needs a configuration file (or a
// package.json) to find its root; babel-jest gets the shared transform (src/transform.js):
// `sourceType: 'unambiguous'` (babel-jest's defaults parse every file as an ES module, which
// rejects sloppy-mode CommonJS), TypeScript's types removed, import/export turned into CommonJS.
// The packages it names resolve from NODE_PATH when the tests run (see README.md, "generate").

const { TRANSFORM_PATTERN, transformOptions } = require('../../transform');
const { quoteString, propertyKey } = require('./js-source');

const CONFIG_PATH = 'jest.config.js';
// The generated test files only (`a/__tests__/b.test.js`, `.test.cjs`, `.program.test.cjs`…): by
// default Jest also takes any `test.js` or `x.spec.js` for a test file, and a package's source
// named so (chai's lib/chai/utils/test.js) then failed every run ("Your test suite must contain
// at least one test").
const TEST_MATCH = ['**/__tests__/**/*.test.?([mc])[jt]s?(x)'];
// Its name where the package's root package.json says "type": "module".
const CJS_CONFIG_PATH = 'jest.config.cjs';

// A JavaScript literal of a configuration value (strings, arrays and plain objects).
function literal(value) {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${propertyKey(key)}: ${literal(item)}`)
      .join(', ')} }`;
  return quoteString(String(value));
}

// The configuration itself, as plain data (it is also written as package.json's "jest" value).
function jestConfig({ esm, typescript = false }) {
  return {
    testEnvironment: 'node',
    testMatch: TEST_MATCH,
    transform: { [TRANSFORM_PATTERN]: ['babel-jest', transformOptions({ esm, typescript })] },
  };
}

function jestConfigFile({ esm, typescript = false }) {
  const config = jestConfig({ esm, typescript });
  const content = [
    '// Written by Vouch for the generated tests.',
    'module.exports = {',
    ...Object.entries(config).map(([key, value]) => `  ${propertyKey(key)}: ${literal(value)},`),
    '};',
    '',
  ].join('\n');
  return { path: CONFIG_PATH, content };
}

// Jest refuses to start ("Multiple configurations found") when a folder holds a jest.config.* and
// a package.json with a "jest" key, which many published packages keep for their own tests (whose
// setup files and test folders the tarball usually leaves out). There the configuration goes into
// that key instead: the package.json returned is the submitted one, its "jest" value replaced by
// the generated tests' configuration, everything else as it was (key order, indentation, line
// ends). Null when `packageJson` has no "jest" key or cannot be read.
function packageJsonWithJestConfig(packageJson, { esm, typescript = false }) {
  let data;
  try {
    data = JSON.parse(packageJson.content);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data) || !('jest' in data)) return null;
  data.jest = jestConfig({ esm, typescript });
  const indent = /^[{[]\r?\n([ \t]+)\S/.exec(packageJson.content);
  const newline = packageJson.content.includes('\r\n') ? '\r\n' : '\n';
  const text = JSON.stringify(data, null, indent ? indent[1] : 2).replace(/\n/g, newline);
  return { path: packageJson.path, content: /\r?\n$/.test(packageJson.content) ? text + newline : text };
}

module.exports = { jestConfigFile, packageJsonWithJestConfig, CONFIG_PATH, CJS_CONFIG_PATH, TEST_MATCH };
