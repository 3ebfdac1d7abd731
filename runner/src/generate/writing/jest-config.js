'use strict';
// The jest.config.js written beside the generated tests. Jest needs a configuration file (or a
// package.json) to find its root; babel-jest gets the shared transform (src/transform.js):
// `sourceType: 'unambiguous'` (babel-jest's defaults parse every file as an ES module, which
// rejects sloppy-mode CommonJS), TypeScript's types removed, import/export turned into CommonJS.
// The packages it names resolve from NODE_PATH when the tests run (see README.md, "generate").

const { TRANSFORM_PATTERN, transformOptions } = require('../../transform');

const CONFIG_PATH = 'jest.config.js';
// The generated test files only (`a/__tests__/b.test.js`, `.test.cjs`, `.program.test.cjs`…): by
// default Jest also takes any `test.js` or `x.spec.js` for a test file, and a package's source
// named so (chai's lib/chai/utils/test.js) then failed every run ("Your test suite must contain
// at least one test").
const TEST_MATCH = ['**/__tests__/**/*.test.?([mc])[jt]s?(x)'];
// Its name where the package's root package.json says "type": "module".
const CJS_CONFIG_PATH = 'jest.config.cjs';

function literal(value) {
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value && typeof value === 'object')
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${key}: ${literal(item)}`)
      .join(', ')} }`;
  return `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function jestConfigFile({ esm, typescript = false }) {
  const content = [
    '// Written by Vouch for the generated tests.',
    'module.exports = {',
    "  testEnvironment: 'node',",
    `  testMatch: ${literal(TEST_MATCH)},`,
    `  transform: { ${literal(TRANSFORM_PATTERN)}: ['babel-jest', ${literal(transformOptions({ esm, typescript }))}] },`,
    '};',
    '',
  ].join('\n');
  return { path: CONFIG_PATH, content };
}

module.exports = { jestConfigFile, CONFIG_PATH, CJS_CONFIG_PATH, TEST_MATCH };
