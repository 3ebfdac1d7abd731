'use strict';
// The code the child runs for a submitted JavaScript file that is no target (a program, a file
// over the cap, a skipped file a target needs): as the shared transform makes it (src/transform.js:
// TypeScript's types removed, import/export turned into CommonJS) but without coverage counters.
// Plain CommonJS is left as written, which is quicker for packages of thousands of files.

const babel = require('@babel/core');
const { isTypeScript, transformOptions, loadedOptions } = require('../../transform');

const MODULE_SYNTAX = /^\s*(import|export)\b/m;

function plainSource(filename, source) {
  const typescript = isTypeScript(filename);
  if (!typescript && !MODULE_SYNTAX.test(source)) return source.startsWith('#!') ? `//${source}` : source;
  const transform = loadedOptions(transformOptions({ esm: true, typescript }));
  return babel.transformSync(source, { ...transform, filename, babelrc: false, configFile: false, compact: false })
    .code;
}

module.exports = { plainSource };
