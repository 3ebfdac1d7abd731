'use strict';
// The one source transform of Vouch's suites, pinned by this package's lockfile: Babel with
// `sourceType: 'unambiguous'` (sloppy-mode CommonJS and ES modules each parsed as what they are),
// @babel/preset-typescript for TypeScript files (types removed, no type check) and
// @babel/plugin-transform-modules-commonjs where import/export must become CommonJS, which Jest
// runs. A run applies it through the jest.config.js that generation writes (babel-jest, the
// packages resolved from the runner's node_modules); generation applies the same options with
// istanbul's visitor added, so what generation executes is what a run executes.

const path = require('node:path');

const TYPESCRIPT_PRESET = '@babel/preset-typescript';
const MODULES_TO_COMMONJS = '@babel/plugin-transform-modules-commonjs';
// Every file babel-jest transforms: .js .cjs .mjs .jsx .ts .cts .mts .tsx.
const TRANSFORM_PATTERN = '\\.[cm]?[jt]sx?$';

// TypeScript sources; declaration files (`.d.ts`) hold no code and are support files.
function isTypeScript(filePath) {
  return /\.[cm]?tsx?$/i.test(filePath) && !/\.d\.[cm]?tsx?$/i.test(filePath);
}

// Babel options with package names, as a config file states them. The preset acts on
// TypeScript files only (by their extension), so one set of options serves a mixed folder.
function transformOptions({ esm, typescript }) {
  return {
    sourceType: 'unambiguous',
    ...(typescript ? { presets: [TYPESCRIPT_PRESET] } : {}),
    ...(esm || typescript ? { plugins: [MODULES_TO_COMMONJS] } : {}),
  };
}

// The same options with the packages loaded from the runner's own node_modules, for babel's API.
function loadedOptions(options) {
  const load = (name) => require(name);
  return {
    ...options,
    presets: (options.presets || []).map(load),
    plugins: (options.plugins || []).map(load),
  };
}

// TypeScript without its types, otherwise as written (comments, lines and import/export kept),
// for analysis by a JavaScript parser. Babel's SyntaxError carries `loc` on failure.
function stripTypes(filename, source) {
  const babel = require('@babel/core');
  const { code } = babel.transformSync(source, {
    filename: path.resolve(filename),
    babelrc: false,
    configFile: false,
    sourceType: 'unambiguous',
    retainLines: true,
    presets: [[require(TYPESCRIPT_PRESET), { onlyRemoveTypeImports: false }]],
  });
  return code;
}

module.exports = { TRANSFORM_PATTERN, isTypeScript, transformOptions, loadedOptions, stripTypes };
